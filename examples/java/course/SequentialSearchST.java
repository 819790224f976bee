package course;

/**
 * A symbol table as an unordered linked list of key-value pairs (sequential search). Keys are
 * compared with `equals`.
 */
public class SequentialSearchST<Key, Value> {
    private int n;
    private Node first;

    private class Node {
        private Key key;
        private Value val;
        private Node next;

        public Node(Key key, Value val, Node next) {
            this.key = key;
            this.val = val;
            this.next = next;
        }
    }

    //@ pred pairs(Node x, int k) := x == null & k == 0 | exists Object key, Object val, Node nx, int m. x -> Node { key: key, val: val, next: nx } * pairs(nx, m) & k == m + 1;

    //@ requires pairs(this.first, this.n);
    public int size() {
        return n;
    }

    //@ requires pairs(this.first, this.n);
    public Value get(Key key) {
        if (key == null) throw new IllegalArgumentException("get() with a null key");
        for (Node x = first; x != null; x = x.next) {
            if (key.equals(x.key)) return x.val;
        }
        return null;
    }

    //@ requires pairs(this.first, this.n);
    public void put(Key key, Value val) {
        if (key == null) throw new IllegalArgumentException("put() with a null key");
        if (val == null) {
            delete(key);
            return;
        }
        for (Node x = first; x != null; x = x.next) {
            if (key.equals(x.key)) {
                x.val = val;
                return;
            }
        }
        first = new Node(key, val, first);
        n++;
    }

    //@ requires pairs(this.first, this.n);
    public void delete(Key key) {
        if (key == null) throw new IllegalArgumentException("delete() with a null key");
        first = delete(first, key);
    }

    private Node delete(Node x, Key key) {
        if (x == null) return null;
        if (key.equals(x.key)) {
            n--;
            return x.next;
        }
        x.next = delete(x.next, key);
        return x;
    }

    //@ requires pairs(this.first, this.n);
    public boolean contains(Key key) {
        return get(key) != null;
    }
}
