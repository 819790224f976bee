package course;

/**
 * A symbol table of key-value pairs kept in a hash table with separate chaining, after the
 * textbook's SeparateChainingHashST: an array of m chains, each a singly linked list of the
 * pairs whose key hashes to it, the chain of a key being (key.hashCode() & 0x7fffffff) % m.
 * A null value is not stored: putting one deletes the key. The table keeps its m chains (no
 * resizing), so a chain stays short only while n is small next to m.
 */
public class SeparateChainingHashST<Key extends Comparable<Key>, Value> {
    private static final int INIT_CHAINS = 4;

    private int n;                      // number of key-value pairs
    private int m;                      // number of chains
    private Node<Key, Value>[] chains;  // chains[i]: the pairs whose key hashes to i

    private static class Node<K extends Comparable<K>, V> {
        private final K key;
        private V val;
        private Node<K, V> next;

        Node(K key, V val, Node<K, V> next) {
            this.key = key;
            this.val = val;
            this.next = next;
        }
    }

    public SeparateChainingHashST() {
        this(INIT_CHAINS);
    }

    public SeparateChainingHashST(int m) {
        this.m = m;
        chains = (Node<Key, Value>[]) new Node[m];
    }

    // the chain of a key: its hash code without the sign bit, modulo m
    private int hash(Key key) {
        return (key.hashCode() & 0x7fffffff) % m;
    }

    // every pair is on the chain its key hashes to, no chain loops, and n counts the pairs
    private boolean check() {
        if (chains == null || m < 1 || chains.length != m) return false;
        int count = 0;
        for (int i = 0; i < m; i++) {
            for (Node<Key, Value> x = chains[i]; x != null; x = x.next) {
                count++;
                if (count > n) return false;
                if (x.key == null || x.val == null || hash(x.key) != i) return false;
            }
        }
        return count == n;
    }

    //@ requires this.m >= 1 & this.m <= 2 & check();
    //@ ensures \result == this.n;
    public int size() {
        return n;
    }

    //@ requires this.m >= 1 & this.m <= 2 & check();
    //@ ensures \result == (this.n == 0);
    public boolean isEmpty() {
        return size() == 0;
    }

    //@ requires this.m >= 1 & this.m <= 2 & check();
    public boolean contains(Key key) {
        if (key == null) throw new IllegalArgumentException("argument to contains() is null");
        return get(key) != null;
    }

    //@ requires this.m >= 1 & this.m <= 2 & check();
    public Value get(Key key) {
        if (key == null) throw new IllegalArgumentException("argument to get() is null");
        int i = hash(key);
        for (Node<Key, Value> x = chains[i]; x != null; x = x.next) {
            if (key.equals(x.key)) return x.val;
        }
        return null;
    }

    //@ requires this.m >= 1 & this.m <= 2 & check();
    //@ ensures check();
    public void put(Key key, Value val) {
        if (key == null) throw new IllegalArgumentException("first argument to put() is null");
        if (val == null) {
            delete(key);
            return;
        }
        int i = hash(key);
        for (Node<Key, Value> x = chains[i]; x != null; x = x.next) {
            if (key.equals(x.key)) {
                x.val = val;
                return;
            }
        }
        chains[i] = new Node<Key, Value>(key, val, chains[i]);
        n++;
    }

    //@ requires this.m >= 1 & this.m <= 2 & check();
    //@ ensures check();
    public void delete(Key key) {
        if (key == null) throw new IllegalArgumentException("argument to delete() is null");
        int i = hash(key);
        chains[i] = delete(chains[i], key);
    }

    // the chain x without the pair of key (if it is there)
    private Node<Key, Value> delete(Node<Key, Value> x, Key key) {
        if (x == null) return null;
        if (key.equals(x.key)) {
            n--;
            return x.next;
        }
        x.next = delete(x.next, key);
        return x;
    }
}
