package course;

import java.util.NoSuchElementException;

/**
 * An ordered symbol table on a binary search tree whose nodes keep their subtree sizes:
 * put, get, contains, min, max, deleteMin, delete (Hibbard), select, rank, floor, ceiling.
 * Keys are `Comparable`; the order invariant is the class's own `isOrdered()`.
 */
public class BST<Key extends Comparable<Key>, Value> {
    private Node root;

    private class Node {
        private Key key;
        private Value val;
        private Node left, right;
        private int size;

        public Node(Key key, Value val, int size) {
            this.key = key;
            this.val = val;
            this.size = size;
        }
    }

    /*@ pred tree(Node x, int n) :=
            x == null & n == 0
          | exists Comparable k, Object v, Node l, Node r, int nl, int nr.
              x -> Node { key: k, val: v, left: l, right: r, size: n } * tree(l, nl) * tree(r, nr)
              & n == nl + nr + 1;
      @*/

    public boolean isEmpty() {
        return size() == 0;
    }

    public int size() {
        return size(root);
    }

    private int size(Node x) {
        if (x == null) return 0;
        return x.size;
    }

    //@ requires exists int n. tree(this.root, n) & isOrdered();
    public Value get(Key key) {
        if (key == null) throw new IllegalArgumentException("get() with a null key");
        Node x = root;
        while (x != null) {
            int cmp = key.compareTo(x.key);
            if (cmp < 0) x = x.left;
            else if (cmp > 0) x = x.right;
            else return x.val;
        }
        return null;
    }

    //@ requires exists int n. tree(this.root, n) & isOrdered();
    public boolean contains(Key key) {
        return get(key) != null;
    }

    //@ requires exists int n. tree(this.root, n) & isOrdered();
    //@ ensures isOrdered() && isSizeConsistent();
    public void put(Key key, Value val) {
        if (key == null) throw new IllegalArgumentException("put() with a null key");
        root = put(root, key, val);
    }

    private Node put(Node x, Key key, Value val) {
        if (x == null) return new Node(key, val, 1);
        int cmp = key.compareTo(x.key);
        if (cmp < 0) x.left = put(x.left, key, val);
        else if (cmp > 0) x.right = put(x.right, key, val);
        else x.val = val;
        x.size = 1 + size(x.left) + size(x.right);
        return x;
    }

    //@ requires exists int n. tree(this.root, n) & isOrdered();
    public Key min() {
        if (isEmpty()) throw new NoSuchElementException("min() of an empty table");
        return min(root).key;
    }

    private Node min(Node x) {
        if (x.left == null) return x;
        return min(x.left);
    }

    //@ requires exists int n. tree(this.root, n) & isOrdered();
    public Key max() {
        if (isEmpty()) throw new NoSuchElementException("max() of an empty table");
        Node x = root;
        while (x.right != null) x = x.right;
        return x.key;
    }

    //@ requires exists int n. tree(this.root, n) & isOrdered();
    //@ ensures isOrdered() && isSizeConsistent();
    public void deleteMin() {
        if (isEmpty()) throw new NoSuchElementException("underflow");
        root = deleteMin(root);
    }

    private Node deleteMin(Node x) {
        if (x.left == null) return x.right;
        x.left = deleteMin(x.left);
        x.size = size(x.left) + size(x.right) + 1;
        return x;
    }

    //@ requires exists int n. tree(this.root, n) & isOrdered();
    //@ ensures isOrdered() && isSizeConsistent();
    public void delete(Key key) {
        if (key == null) throw new IllegalArgumentException("delete() with a null key");
        root = delete(root, key);
    }

    private Node delete(Node x, Key key) {
        if (x == null) return null;
        int cmp = key.compareTo(x.key);
        if (cmp < 0) x.left = delete(x.left, key);
        else if (cmp > 0) x.right = delete(x.right, key);
        else {
            if (x.right == null) return x.left;
            if (x.left == null) return x.right;
            Node t = x;
            x = min(t.right);
            x.right = deleteMin(t.right);
            x.left = t.left;
        }
        x.size = size(x.left) + size(x.right) + 1;
        return x;
    }

    //@ requires exists int n. tree(this.root, n) & isOrdered() & isSizeConsistent();
    public Key select(int rank) {
        if (rank < 0 || rank >= size()) throw new IllegalArgumentException("rank out of range");
        Node x = root;
        while (true) {
            int leftSize = size(x.left);
            if (leftSize > rank) x = x.left;
            else if (leftSize < rank) {
                rank = rank - leftSize - 1;
                x = x.right;
            } else return x.key;
        }
    }

    //@ requires exists int n. tree(this.root, n) & isOrdered() & isSizeConsistent();
    public int rank(Key key) {
        if (key == null) throw new IllegalArgumentException("rank() with a null key");
        return rank(key, root);
    }

    private int rank(Key key, Node x) {
        if (x == null) return 0;
        int cmp = key.compareTo(x.key);
        if (cmp < 0) return rank(key, x.left);
        else if (cmp > 0) return 1 + size(x.left) + rank(key, x.right);
        else return size(x.left);
    }

    //@ requires exists int n. tree(this.root, n) & isOrdered();
    public Key floor(Key key) {
        Node x = floor(root, key);
        return x == null ? null : x.key;
    }

    private Node floor(Node x, Key key) {
        if (x == null) return null;
        int cmp = key.compareTo(x.key);
        if (cmp == 0) return x;
        if (cmp < 0) return floor(x.left, key);
        Node t = floor(x.right, key);
        return t != null ? t : x;
    }

    /** In-order keys strictly increase. */
    private boolean isOrdered() {
        return isOrdered(root, null, null);
    }

    private boolean isOrdered(Node x, Key low, Key high) {
        if (x == null) return true;
        if (x.key == null) return false;
        if (low != null && x.key.compareTo(low) <= 0) return false;
        if (high != null && x.key.compareTo(high) >= 0) return false;
        return isOrdered(x.left, low, x.key) && isOrdered(x.right, x.key, high);
    }

    private boolean isSizeConsistent() {
        return isSizeConsistent(root);
    }

    private boolean isSizeConsistent(Node x) {
        if (x == null) return true;
        if (x.size != size(x.left) + size(x.right) + 1) return false;
        return isSizeConsistent(x.left) && isSizeConsistent(x.right);
    }
}
