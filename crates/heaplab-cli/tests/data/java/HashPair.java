package course;

/**
 * Two slots of an unbounded type parameter and a bucket count, for the hash of an `Object`
 * element: `hashCode()` of a key of an unbounded type is whatever the key's class returns,
 * the same object giving the same hash every time, and `equals` is identity unless the
 * key's class says otherwise.
 */
public class HashPair<T> {
    private T first;
    private T second;
    private int m;

    private int bucket(T x) {
        return (x.hashCode() & 0x7fffffff) % m;
    }

    //@ requires this.m >= 1 & this.m <= 4;
    public int slot(T x) {
        if (x == null) throw new IllegalArgumentException("null key");
        return bucket(x);
    }

    /** Whether two different keys share a bucket. */
    //@ requires this.m >= 1 & this.m <= 4;
    public boolean collide() {
        if (first == null || second == null || first.equals(second)) return false;
        return bucket(first) == bucket(second);
    }

    /** Whether the two keys hash alike but are not equal (Object's equals is identity). */
    //@ requires true;
    public boolean sameHashNotEqual() {
        if (first == null || second == null) return false;
        if (first.hashCode() != second.hashCode()) return false;
        return !first.equals(second);
    }

    /** The hash read twice is the same. */
    //@ requires true;
    //@ ensures \result;
    public boolean stable(T x) {
        if (x == null) return true;
        int h = x.hashCode();
        return h == x.hashCode();
    }
}
