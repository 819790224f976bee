/**
 * A binary search tree of int keys in the style of Weiss's BinarySearchTree: insert, remove,
 * find, findMin, findMax, isEmpty, makeEmpty, printTree. The recursive helpers take and return
 * a subtree, as in the textbook.
 *
 * The Java twin of examples/bst.hl: same classes, methods and branches, so that
 * `heaplab bench --suite examples/java` and `--suite examples` agree row by row.
 */
public class BST {
    static class Node {
        int key;
        Node left, right;

        Node(int key) {
            this.key = key;
        }
    }

    Node root;

    /*@ pred bst(Node t, int lo, int hi) :=
            t == null
          | exists int k, Node l, Node r.
              t -> Node { key: k, left: l, right: r } * bst(l, lo, k) * bst(r, k, hi)
              & lo < k & k < hi;
      @*/

    //@ requires exists int lo, int hi. bst(this.root, lo, hi);
    //@ ensures contains(this.root, x) && isBst(this.root);
    public void insert(int x) {
        root = insertAt(x, root);
    }

    private Node insertAt(int x, Node t) {
        if (t == null)
            t = new Node(x);
        else if (x < t.key)
            t.left = insertAt(x, t.left);
        else if (x > t.key)
            t.right = insertAt(x, t.right);
        // else a duplicate: do nothing
        return t;
    }

    //@ requires exists int lo, int hi. bst(this.root, lo, hi);
    //@ ensures !contains(this.root, x) && isBst(this.root);
    public void remove(int x) {
        root = removeAt(x, root);
    }

    /** Two children: replace the key by the minimum of the right subtree. */
    private Node removeAt(int x, Node t) {
        if (t == null)
            return t;   // not found: do nothing
        if (x < t.key)
            t.left = removeAt(x, t.left);
        else if (x > t.key)
            t.right = removeAt(x, t.right);
        else if (t.left != null && t.right != null) {
            t.key = findMinAt(t.right).key;
            t.right = removeAt(t.key, t.right);
        } else
            t = (t.left != null) ? t.left : t.right;
        return t;
    }

    //@ requires exists int lo, int hi. bst(this.root, lo, hi);
    //@ ensures \result == contains(this.root, x);
    public boolean find(int x) {
        return findAt(x, root) != null;
    }

    private Node findAt(int x, Node t) {
        if (t == null)
            return null;
        if (x < t.key)
            return findAt(x, t.left);
        else if (x > t.key)
            return findAt(x, t.right);
        else
            return t;   // a match
    }

    //@ requires exists int lo, int hi. bst(this.root, lo, hi);
    //@ ensures \result == null ? this.root == null : contains(this.root, \result.key) && isBst(this.root);
    public Node findMin() {
        return findMinAt(root);
    }

    private Node findMinAt(Node t) {
        if (t == null)
            return null;
        else if (t.left == null)
            return t;
        return findMinAt(t.left);
    }

    //@ requires exists int lo, int hi. bst(this.root, lo, hi) & this.root != null;
    //@ ensures contains(this.root, \result);
    public int findMax() {
        return findMaxAt(root).key;
    }

    private Node findMaxAt(Node t) {
        if (t != null)
            while (t.right != null)
                t = t.right;
        return t;
    }

    //@ requires exists int lo, int hi. bst(this.root, lo, hi);
    public boolean isEmpty() {
        return root == null;
    }

    //@ requires exists int lo, int hi. bst(this.root, lo, hi);
    //@ ensures this.root == null;
    public void makeEmpty() {
        root = null;
    }

    /** An in-order walk that counts the keys it would print. */
    //@ requires exists int lo, int hi. bst(this.root, lo, hi);
    //@ ensures \result == size(this.root);
    public int printTree() {
        if (root == null) return 0;   // System.out.println("Empty tree")
        return printAt(root);
    }

    private int printAt(Node t) {
        if (t == null) return 0;
        int n = printAt(t.left);
        n++;                          // System.out.println(t.key)
        return n + printAt(t.right);
    }

    static boolean contains(Node t, int x) {
        if (t == null) return false;
        if (t.key == x) return true;
        return x < t.key ? contains(t.left, x) : contains(t.right, x);
    }

    /** repOK with an explicit range. */
    static boolean inRange(Node t, boolean hasLo, int lo, boolean hasHi, int hi) {
        if (t == null) return true;
        if (hasLo && t.key <= lo) return false;
        if (hasHi && t.key >= hi) return false;
        return inRange(t.left, hasLo, lo, true, t.key) && inRange(t.right, true, t.key, hasHi, hi);
    }

    static boolean isBst(Node t) {
        return inRange(t, false, 0, false, 0);
    }

    static int size(Node t) {
        if (t == null) return 0;
        return 1 + size(t.left) + size(t.right);
    }
}
