/**
 * An AA tree of int elements in the style of Weiss's AATree, with a shared sentinel nullNode
 * (level 0, children itself): insert with skew and split, remove with deletedNode and lastNode,
 * contains, findMin, findMax, isEmpty, makeEmpty. The sentinel is an instance field (the
 * precondition mentions it); the textbook's exceptions are failed assertions.
 *
 * The Java twin of examples/aatree.hl (same classes, methods and branches).
 */
public class AATree {
    static class AANode {
        int element;
        AANode left;
        AANode right;
        int level;
    }

    AANode root;
    AANode nullNode;
    AANode deletedNode;
    AANode lastNode;

    /*@ pred aat(AANode t, AANode nn) :=
            nn -> AANode { element: 0, left: nn, right: nn, level: 0 } & t == nn
          | exists int e, AANode l, AANode r, int lv, int l1, int lo, int hi.
              t -> AANode { element: e, left: l, right: r, level: lv }
              * nn -> AANode { element: 0, left: nn, right: nn, level: 0 }
              * aaLevel(l, lo, e, l1, nn) * aaHoriz(r, e, hi, lv, nn)
              & lv == l1 + 1
          | exists int e, AANode l, AANode r, int lv, int l1, int lo, int hi.
              t -> AANode { element: e, left: l, right: r, level: lv }
              * nn -> AANode { element: 0, left: nn, right: nn, level: 0 }
              * aaLevel(l, lo, e, l1, nn) * aaLevel(r, e, hi, l1, nn)
              & lv == l1 + 1;
        pred aaLevel(AANode t, int lo, int hi, int lv, AANode nn) :=
            t == nn & lv == 0
          | exists int e, AANode l, AANode r, int l1.
              t -> AANode { element: e, left: l, right: r, level: lv }
              * aaLevel(l, lo, e, l1, nn) * aaHoriz(r, e, hi, lv, nn)
              & lo < e & e < hi & lv == l1 + 1
          | exists int e, AANode l, AANode r, int l1.
              t -> AANode { element: e, left: l, right: r, level: lv }
              * aaLevel(l, lo, e, l1, nn) * aaLevel(r, e, hi, l1, nn)
              & lo < e & e < hi & lv == l1 + 1;
        pred aaHoriz(AANode t, int lo, int hi, int lv, AANode nn) :=
            t == nn & lv == 0
          | exists int e, AANode l, AANode r, int l1.
              t -> AANode { element: e, left: l, right: r, level: lv }
              * aaLevel(l, lo, e, l1, nn) * aaLevel(r, e, hi, l1, nn)
              & lo < e & e < hi & lv == l1 + 1;
      @*/

    //@ requires aat(this.root, this.nullNode) & this.deletedNode == this.nullNode & this.lastNode == this.nullNode;
    //@ ensures member(this.root, this.nullNode, x) && aaOk(this.root, this.nullNode);
    public void insert(int x) {
        root = insertAt(x, root);
    }

    private AANode insertAt(int x, AANode t) {
        if (t == nullNode) {
            t = new AANode();
            t.element = x;
            t.left = nullNode;
            t.right = nullNode;
            t.level = 1;
        } else if (x < t.element)
            t.left = insertAt(x, t.left);
        else if (x > t.element)
            t.right = insertAt(x, t.right);
        else
            assert false;   // throw new DuplicateItemException(x)
        t = skew(t);
        t = split(t);
        return t;
    }

    //@ requires aat(this.root, this.nullNode) & this.deletedNode == this.nullNode & this.lastNode == this.nullNode;
    //@ ensures !member(this.root, this.nullNode, x) && aaOk(this.root, this.nullNode);
    public void remove(int x) {
        deletedNode = nullNode;
        root = removeAt(x, root);
    }

    private AANode removeAt(int x, AANode t) {
        if (t != nullNode) {
            // Step 1: search down the tree and set lastNode and deletedNode.
            lastNode = t;
            if (x < t.element)
                t.left = removeAt(x, t.left);
            else {
                deletedNode = t;
                t.right = removeAt(x, t.right);
            }
            // Step 2: at the bottom of the tree with x present, remove it.
            if (t == lastNode) {
                if (deletedNode == nullNode || x != deletedNode.element)
                    assert false;   // throw new ItemNotFoundException(x)
                deletedNode.element = t.element;
                t = t.right;
            }
            // Step 3: otherwise, not at the bottom: rebalance.
            else if (t.left.level < t.level - 1 || t.right.level < t.level - 1) {
                t.level = t.level - 1;                 // Weiss: if (t.right.level > --t.level)
                if (t.right.level > t.level)
                    t.right.level = t.level;
                t = skew(t);
                t.right = skew(t.right);
                t.right.right = skew(t.right.right);
                t = split(t);
                t.right = split(t.right);
            }
        }
        return t;
    }

    /** Weiss's find: the sentinel holds x so the loop always stops. */
    //@ requires aat(this.root, this.nullNode) & this.deletedNode == this.nullNode & this.lastNode == this.nullNode;
    public boolean contains(int x) {
        AANode current = root;
        nullNode.element = x;
        while (true) {
            if (x < current.element)
                current = current.left;
            else if (x > current.element)
                current = current.right;
            else if (current != nullNode)
                return true;
            else
                return false;
        }
    }

    //@ requires aat(this.root, this.nullNode) & this.deletedNode == this.nullNode & this.lastNode == this.nullNode;
    //@ ensures member(this.root, this.nullNode, \result);
    public int findMin() {
        assert !isEmpty();   // Weiss returns null
        AANode ptr = root;
        while (ptr.left != nullNode)
            ptr = ptr.left;
        return ptr.element;
    }

    //@ requires aat(this.root, this.nullNode) & this.deletedNode == this.nullNode & this.lastNode == this.nullNode;
    //@ ensures member(this.root, this.nullNode, \result);
    public int findMax() {
        assert !isEmpty();   // Weiss returns null
        AANode ptr = root;
        while (ptr.right != nullNode)
            ptr = ptr.right;
        return ptr.element;
    }

    //@ requires aat(this.root, this.nullNode) & this.deletedNode == this.nullNode & this.lastNode == this.nullNode;
    //@ ensures this.root == this.nullNode;
    public void makeEmpty() {
        root = nullNode;
    }

    //@ requires aat(this.root, this.nullNode) & this.deletedNode == this.nullNode & this.lastNode == this.nullNode;
    public boolean isEmpty() {
        return root == nullNode;
    }

    /** Skew: remove a left horizontal link. */
    private static AANode skew(AANode t) {
        if (t.left.level == t.level)
            t = rotateWithLeftChild(t);
        return t;
    }

    /** Split: remove two consecutive right horizontal links. */
    private static AANode split(AANode t) {
        if (t.right.right.level == t.level) {
            t = rotateWithRightChild(t);
            t.level = t.level + 1;
        }
        return t;
    }

    private static AANode rotateWithLeftChild(AANode k2) {
        AANode k1 = k2.left;
        k2.left = k1.right;
        k1.right = k2;
        return k1;
    }

    private static AANode rotateWithRightChild(AANode k1) {
        AANode k2 = k1.right;
        k1.right = k2.left;
        k2.left = k1;
        return k2;
    }

    static boolean member(AANode t, AANode nn, int x) {
        if (t == nn) return false;
        if (t.element == x) return true;
        return x < t.element ? member(t.left, nn, x) : member(t.right, nn, x);
    }

    /** The AA invariants, ordering, and an intact sentinel. */
    static boolean aaOk(AANode t, AANode nn) {
        return nn.level == 0 && nn.left == nn && nn.right == nn && aaNode(t, nn, false, 0, false, 0);
    }

    static boolean aaNode(AANode t, AANode nn, boolean hasLo, int lo, boolean hasHi, int hi) {
        if (t == nn) return true;
        if (hasLo && t.element <= lo) return false;
        if (hasHi && t.element >= hi) return false;
        if (t.left.level != t.level - 1) return false;
        if (t.right.level != t.level && t.right.level != t.level - 1) return false;
        if (t.right.right.level >= t.level) return false;
        return aaNode(t.left, nn, hasLo, lo, true, t.element) && aaNode(t.right, nn, true, t.element, hasHi, hi);
    }
}
