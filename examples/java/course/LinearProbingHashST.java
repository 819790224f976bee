package course;

/**
 * A symbol table of key-value pairs in one open-addressed hash table, after the textbook's
 * LinearProbingHashST: two parallel arrays of m slots, keys[i] and vals[i] holding one pair. A
 * key goes to slot (key.hashCode() & 0x7fffffff) % m, or, when that slot holds another key, to
 * the next free slot after it, wrapping around at the end (linear probing). A lookup walks the
 * same run of slots and stops at the first empty one, so deleting a key re-inserts the keys of
 * the run after it. The table doubles when it becomes half full and halves when it drops to an
 * eighth, so there is always an empty slot to stop a walk.
 *
 * The keys are of an unbounded type parameter: their equality is whatever their class says
 * (Object's identity unless overridden) and their hash whatever their hashCode() returns.
 */
public class LinearProbingHashST<Key, Value> {
    private static final int INIT_CAPACITY = 4;

    private int n;          // number of key-value pairs
    private int m;          // number of slots
    private Key[] keys;     // keys[i]: the key in slot i, null when the slot is free
    private Value[] vals;   // vals[i]: the value of keys[i]

    public LinearProbingHashST() {
        this(INIT_CAPACITY);
    }

    public LinearProbingHashST(int capacity) {
        m = capacity;
        n = 0;
        keys = (Key[]) new Object[m];
        vals = (Value[]) new Object[m];
    }

    // the first slot tried for a key: its hash code without the sign bit, modulo m
    private int hash(Key key) {
        return (key.hashCode() & 0x7fffffff) % m;
    }

    // two arrays; slot i and its value hold both or neither; between a key's first slot and its own there
    // is no free slot; no key is stored twice; n counts the keys and leaves a slot free
    private boolean check() {
        if (keys == null || vals == null || keys == vals || m < 1) return false;
        if (keys.length != m || vals.length != m || n < 0 || n >= m) return false;
        int count = 0;
        for (int i = 0; i < m; i++) {
            if (keys[i] == null) {
                if (vals[i] != null) return false;
                continue;
            }
            if (vals[i] == null) return false;
            count++;
            for (int j = hash(keys[i]); j != i; j = (j + 1) % m) {
                if (keys[j] == null) return false;
            }
            for (int j = i + 1; j < m; j++) {
                if (keys[i].equals(keys[j])) return false;
            }
        }
        return count == n;
    }

    //@ requires this.m >= 1 & this.m <= 4 & check();
    //@ ensures \result == this.n;
    public int size() {
        return n;
    }

    //@ requires this.m >= 1 & this.m <= 4 & check();
    //@ ensures \result == (this.n == 0);
    public boolean isEmpty() {
        return size() == 0;
    }

    //@ requires this.m >= 1 & this.m <= 4 & check();
    public boolean contains(Key key) {
        if (key == null) throw new IllegalArgumentException("argument to contains() is null");
        return get(key) != null;
    }

    //@ requires this.m >= 1 & this.m <= 4 & check();
    public Value get(Key key) {
        if (key == null) throw new IllegalArgumentException("argument to get() is null");
        for (int i = hash(key); keys[i] != null; i = (i + 1) % m) {
            if (keys[i].equals(key)) return vals[i];
        }
        return null;
    }

    // the same pairs in a table of the given number of slots
    private void resize(int capacity) {
        LinearProbingHashST<Key, Value> t = new LinearProbingHashST<Key, Value>(capacity);
        for (int i = 0; i < m; i++) {
            if (keys[i] != null) t.put(keys[i], vals[i]);
        }
        keys = t.keys;
        vals = t.vals;
        m = t.m;
    }

    //@ requires this.m >= 1 & this.m <= 4 & check();
    //@ ensures check();
    public void put(Key key, Value val) {
        if (key == null) throw new IllegalArgumentException("first argument to put() is null");
        if (val == null) {
            delete(key);
            return;
        }
        if (n >= m / 2) resize(2 * m);
        int i;
        for (i = hash(key); keys[i] != null; i = (i + 1) % m) {
            if (keys[i].equals(key)) {
                vals[i] = val;
                return;
            }
        }
        keys[i] = key;
        vals[i] = val;
        n++;
    }

    //@ requires this.m >= 1 & this.m <= 4 & check();
    //@ ensures check();
    public void delete(Key key) {
        if (key == null) throw new IllegalArgumentException("argument to delete() is null");
        if (!contains(key)) return;
        int i = hash(key);
        while (!key.equals(keys[i])) {
            i = (i + 1) % m;
        }
        keys[i] = null;
        vals[i] = null;
        // the rest of the run may have probed past slot i: put each of its keys back
        i = (i + 1) % m;
        while (keys[i] != null) {
            Key k = keys[i];
            Value v = vals[i];
            keys[i] = null;
            vals[i] = null;
            n--;
            put(k, v);
            i = (i + 1) % m;
        }
        n--;
        if (n > 0 && n <= m / 8) resize(m / 2);
    }
}
