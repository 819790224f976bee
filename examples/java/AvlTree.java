import java.util.NoSuchElementException;

/**
 * An AVL tree of int keys in the style of Weiss's AvlTree: insert with single and double
 * rotations, find, findMin, findMax, isEmpty, makeEmpty, maxElement, minElement, printTree.
 *
 * The Java twin of examples/avl.hl (same classes, methods and branches).
 */
public class AvlTree {
    static class AvlNode {
        int element;
        AvlNode left;
        AvlNode right;
        int height;

        AvlNode(int element) {
            this.element = element;
        }
    }

    AvlNode root;

    /*@ pred avl(AvlNode t, int lo, int hi, int h) :=
            t == null & h == -1
          | exists int e, AvlNode l, AvlNode r, int hl, int hr.
              t -> AvlNode { element: e, left: l, right: r, height: h }
              * avl(l, lo, e, hl) * avl(r, e, hi, hr)
              & lo < e & e < hi & hl == hr & h == hl + 1
          | exists int e, AvlNode l, AvlNode r, int hl, int hr.
              t -> AvlNode { element: e, left: l, right: r, height: h }
              * avl(l, lo, e, hl) * avl(r, e, hi, hr)
              & lo < e & e < hi & hl == hr + 1 & h == hl + 1
          | exists int e, AvlNode l, AvlNode r, int hl, int hr.
              t -> AvlNode { element: e, left: l, right: r, height: h }
              * avl(l, lo, e, hl) * avl(r, e, hi, hr)
              & lo < e & e < hi & hl + 1 == hr & h == hr + 1;
      @*/

    //@ requires exists int lo, int hi, int h. avl(this.root, lo, hi, h);
    //@ ensures contains(this.root, x) && isAvl(this.root);
    public void insert(int x) {
        root = insertAt(x, root);
    }

    private AvlNode insertAt(int x, AvlNode t) {
        if (t == null)
            t = new AvlNode(x);
        else if (x < t.element) {
            t.left = insertAt(x, t.left);
            if (height(t.left) - height(t.right) == 2)
                if (x < t.left.element)
                    t = rotateWithLeftChild(t);
                else
                    t = doubleWithLeftChild(t);
        } else if (x > t.element) {
            t.right = insertAt(x, t.right);
            if (height(t.right) - height(t.left) == 2)
                if (x > t.right.element)
                    t = rotateWithRightChild(t);
                else
                    t = doubleWithRightChild(t);
        }
        // else a duplicate: do nothing
        t.height = max(height(t.left), height(t.right)) + 1;
        return t;
    }

    //@ requires exists int lo, int hi, int h. avl(this.root, lo, hi, h);
    //@ ensures \result == contains(this.root, x);
    public boolean find(int x) {
        return findAt(x, root) != null;
    }

    private AvlNode findAt(int x, AvlNode t) {
        while (t != null)
            if (x < t.element)
                t = t.left;
            else if (x > t.element)
                t = t.right;
            else
                return t;   // a match
        return null;        // no match
    }

    //@ requires exists int lo, int hi, int h. avl(this.root, lo, hi, h) & this.root != null;
    //@ ensures contains(this.root, \result);
    public int findMin() {
        return findMinAt(root).element;
    }

    private AvlNode findMinAt(AvlNode t) {
        if (t == null)
            return t;
        while (t.left != null)
            t = t.left;
        return t;
    }

    //@ requires exists int lo, int hi, int h. avl(this.root, lo, hi, h) & this.root != null;
    //@ ensures contains(this.root, \result);
    public int findMax() {
        return findMaxAt(root).element;
    }

    private AvlNode findMaxAt(AvlNode t) {
        if (t == null)
            return t;
        while (t.right != null)
            t = t.right;
        return t;
    }

    //@ requires exists int lo, int hi, int h. avl(this.root, lo, hi, h);
    public boolean isEmpty() {
        return root == null;
    }

    //@ requires exists int lo, int hi, int h. avl(this.root, lo, hi, h);
    //@ ensures this.root == null;
    public void makeEmpty() {
        root = null;
    }

    //@ requires exists int lo, int hi, int h. avl(this.root, lo, hi, h);
    //@ ensures contains(this.root, \result);
    public int maxElement() {
        if (root == null) throw new NoSuchElementException();
        return maxElementAt(root);
    }

    private int maxElementAt(AvlNode t) {
        if (t.right == null) return t.element;
        return maxElementAt(t.right);
    }

    //@ requires exists int lo, int hi, int h. avl(this.root, lo, hi, h);
    //@ ensures contains(this.root, \result);
    public int minElement() {
        if (root == null) throw new NoSuchElementException();
        return minElementAt(root);
    }

    private int minElementAt(AvlNode t) {
        if (t.left == null) return t.element;
        return minElementAt(t.left);
    }

    /** An in-order walk that counts the elements it would print. */
    //@ requires exists int lo, int hi, int h. avl(this.root, lo, hi, h);
    //@ ensures \result == size(this.root);
    public int printTree() {
        if (root == null) return 0;   // System.out.println("Empty tree")
        return printAt(root);
    }

    private int printAt(AvlNode t) {
        if (t == null) return 0;
        int n = printAt(t.left);
        n++;                          // System.out.println(t.element)
        return n + printAt(t.right);
    }

    private static int height(AvlNode t) {
        return t == null ? -1 : t.height;
    }

    private static int max(int lhs, int rhs) {
        return lhs > rhs ? lhs : rhs;
    }

    private static AvlNode rotateWithLeftChild(AvlNode k2) {
        AvlNode k1 = k2.left;
        k2.left = k1.right;
        k1.right = k2;
        k2.height = max(height(k2.left), height(k2.right)) + 1;
        k1.height = max(height(k1.left), k2.height) + 1;
        return k1;
    }

    private static AvlNode rotateWithRightChild(AvlNode k1) {
        AvlNode k2 = k1.right;
        k1.right = k2.left;
        k2.left = k1;
        k1.height = max(height(k1.left), height(k1.right)) + 1;
        k2.height = max(height(k2.right), k1.height) + 1;
        return k2;
    }

    private static AvlNode doubleWithLeftChild(AvlNode k3) {
        k3.left = rotateWithRightChild(k3.left);
        return rotateWithLeftChild(k3);
    }

    private static AvlNode doubleWithRightChild(AvlNode k1) {
        k1.right = rotateWithLeftChild(k1.right);
        return rotateWithRightChild(k1);
    }

    static boolean contains(AvlNode t, int x) {
        if (t == null) return false;
        if (t.element == x) return true;
        return x < t.element ? contains(t.left, x) : contains(t.right, x);
    }

    static boolean isAvl(AvlNode t) {
        return ordered(t, false, 0, false, 0) && balanced(t);
    }

    static boolean ordered(AvlNode t, boolean hasLo, int lo, boolean hasHi, int hi) {
        if (t == null) return true;
        if (hasLo && t.element <= lo) return false;
        if (hasHi && t.element >= hi) return false;
        return ordered(t.left, hasLo, lo, true, t.element) && ordered(t.right, true, t.element, hasHi, hi);
    }

    static int realHeight(AvlNode t) {
        if (t == null) return -1;
        return max(realHeight(t.left), realHeight(t.right)) + 1;
    }

    static boolean balanced(AvlNode t) {
        if (t == null) return true;
        int d = realHeight(t.left) - realHeight(t.right);
        return t.height == realHeight(t) && d <= 1 && d >= -1 && balanced(t.left) && balanced(t.right);
    }

    static int size(AvlNode t) {
        if (t == null) return 0;
        return 1 + size(t.left) + size(t.right);
    }
}
