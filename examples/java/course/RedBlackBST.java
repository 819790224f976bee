package course;

import java.util.NoSuchElementException;

/**
 * A left-leaning red-black tree (2-3 tree as a BST): put with rotations and colour flips, get,
 * deleteMin. The balance invariants are the class's own checks.
 */
public class RedBlackBST<Key extends Comparable<Key>, Value> {
    private static final boolean RED = true;
    private static final boolean BLACK = false;

    private Node root;

    private class Node {
        private Key key;
        private Value val;
        private Node left, right;
        private boolean color;   // the colour of the link from the parent
        private int size;

        public Node(Key key, Value val, boolean color, int size) {
            this.key = key;
            this.val = val;
            this.color = color;
            this.size = size;
        }
    }

    /*@ pred rb(Node x, int n) :=
            x == null & n == 0
          | exists Comparable k, Object v, Node l, Node r, boolean c, int nl, int nr.
              x -> Node { key: k, val: v, left: l, right: r, color: c, size: n } * rb(l, nl) * rb(r, nr)
              & n == nl + nr + 1;
      @*/

    private boolean isRed(Node x) {
        if (x == null) return false;
        return x.color == RED;
    }

    private int size(Node x) {
        if (x == null) return 0;
        return x.size;
    }

    public boolean isEmpty() {
        return root == null;
    }

    //@ requires exists int n. rb(this.root, n) & isLlrb();
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

    //@ requires exists int n. rb(this.root, n) & isLlrb();
    //@ ensures isLlrb();
    public void put(Key key, Value val) {
        if (key == null) throw new IllegalArgumentException("put() with a null key");
        root = put(root, key, val);
        root.color = BLACK;
    }

    private Node put(Node h, Key key, Value val) {
        if (h == null) return new Node(key, val, RED, 1);
        int cmp = key.compareTo(h.key);
        if (cmp < 0) h.left = put(h.left, key, val);
        else if (cmp > 0) h.right = put(h.right, key, val);
        else h.val = val;
        if (isRed(h.right) && !isRed(h.left)) h = rotateLeft(h);
        if (isRed(h.left) && isRed(h.left.left)) h = rotateRight(h);
        if (isRed(h.left) && isRed(h.right)) flipColors(h);
        h.size = size(h.left) + size(h.right) + 1;
        return h;
    }

    //@ requires exists int n. rb(this.root, n) & isLlrb();
    //@ ensures isLlrb();
    public void deleteMin() {
        if (isEmpty()) throw new NoSuchElementException("underflow");
        if (!isRed(root.left) && !isRed(root.right)) root.color = RED;
        root = deleteMin(root);
        if (!isEmpty()) root.color = BLACK;
    }

    private Node deleteMin(Node h) {
        if (h.left == null) return null;
        if (!isRed(h.left) && !isRed(h.left.left)) h = moveRedLeft(h);
        h.left = deleteMin(h.left);
        return balance(h);
    }

    private Node rotateRight(Node h) {
        Node x = h.left;
        h.left = x.right;
        x.right = h;
        x.color = h.color;
        h.color = RED;
        x.size = h.size;
        h.size = size(h.left) + size(h.right) + 1;
        return x;
    }

    private Node rotateLeft(Node h) {
        Node x = h.right;
        h.right = x.left;
        x.left = h;
        x.color = h.color;
        h.color = RED;
        x.size = h.size;
        h.size = size(h.left) + size(h.right) + 1;
        return x;
    }

    private void flipColors(Node h) {
        h.color = !h.color;
        h.left.color = !h.left.color;
        h.right.color = !h.right.color;
    }

    private Node moveRedLeft(Node h) {
        flipColors(h);
        if (isRed(h.right.left)) {
            h.right = rotateRight(h.right);
            h = rotateLeft(h);
            flipColors(h);
        }
        return h;
    }

    private Node balance(Node h) {
        if (isRed(h.right) && !isRed(h.left)) h = rotateLeft(h);
        if (isRed(h.left) && isRed(h.left.left)) h = rotateRight(h);
        if (isRed(h.left) && isRed(h.right)) flipColors(h);
        h.size = size(h.left) + size(h.right) + 1;
        return h;
    }

    /** Ordered keys, consistent sizes, no right-leaning or double red link, equal black height. */
    private boolean isLlrb() {
        return !isRed(root) && isOrdered(root, null, null) && sizesAgree(root) && is23(root) && blackBalanced();
    }

    private boolean isOrdered(Node x, Key low, Key high) {
        if (x == null) return true;
        if (x.key == null) return false;
        if (low != null && x.key.compareTo(low) <= 0) return false;
        if (high != null && x.key.compareTo(high) >= 0) return false;
        return isOrdered(x.left, low, x.key) && isOrdered(x.right, x.key, high);
    }

    private boolean sizesAgree(Node x) {
        if (x == null) return true;
        if (x.size != size(x.left) + size(x.right) + 1) return false;
        return sizesAgree(x.left) && sizesAgree(x.right);
    }

    private boolean is23(Node x) {
        if (x == null) return true;
        if (isRed(x.right)) return false;
        if (x != root && isRed(x) && isRed(x.left)) return false;
        return is23(x.left) && is23(x.right);
    }

    private boolean blackBalanced() {
        int black = 0;
        Node x = root;
        while (x != null) {
            if (!isRed(x)) black++;
            x = x.left;
        }
        return blackBalanced(root, black);
    }

    private boolean blackBalanced(Node x, int black) {
        if (x == null) return black == 0;
        if (!isRed(x)) black--;
        return blackBalanced(x.left, black) && blackBalanced(x.right, black);
    }
}
