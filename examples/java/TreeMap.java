/**
 * A red-black tree map of int keys to int values in the style of JDK 1.5's java.util.TreeMap:
 * get, containsKey, containsValue, put, remove, firstKey, lastKey, with fixAfterInsertion,
 * fixAfterDeletion, deleteEntry, successor and the rotations. BLACK is true, as in the JDK.
 *
 * The Java twin of examples/treemap.hl (same classes, methods and branches).
 */
public class TreeMap {
    private static final boolean RED = false;
    private static final boolean BLACK = true;

    static class Entry {
        int key;
        int value;
        Entry left;
        Entry right;
        Entry parent;
        boolean color = BLACK;

        Entry(int key, int value, Entry parent) {
            this.key = key;
            this.value = value;
            this.parent = parent;
        }

        int setValue(int value) {
            int oldValue = this.value;
            this.value = value;
            return oldValue;
        }
    }

    Entry root;
    int size;

    /*@ pred rbt(Entry t, int size) :=
            t == null & size == 0
          | exists int k, int v, Entry l, Entry r, int lo, int hi, int sl, int sr, int bh.
              t -> Entry { key: k, value: v, left: l, right: r, parent: null, color: true }
              * rbtE(l, t, lo, k, sl, bh) * rbtE(r, t, k, hi, sr, bh)
              & size == sl + sr + 1;
        pred rbtE(Entry t, Entry pa, int lo, int hi, int size, int bh) :=
            t == null & size == 0 & bh == 0
          | exists int k, int v, Entry l, Entry r, int sl, int sr, int b1.
              t -> Entry { key: k, value: v, left: l, right: r, parent: pa, color: true }
              * rbtE(l, t, lo, k, sl, b1) * rbtE(r, t, k, hi, sr, b1)
              & lo < k & k < hi & size == sl + sr + 1 & bh == b1 + 1
          | exists int k, int v, Entry l, Entry r, int sl, int sr.
              t -> Entry { key: k, value: v, left: l, right: r, parent: pa, color: false }
              * rbtB(l, t, lo, k, sl, bh) * rbtB(r, t, k, hi, sr, bh)
              & lo < k & k < hi & size == sl + sr + 1;
        pred rbtB(Entry t, Entry pa, int lo, int hi, int size, int bh) :=
            t == null & size == 0 & bh == 0
          | exists int k, int v, Entry l, Entry r, int sl, int sr, int b1.
              t -> Entry { key: k, value: v, left: l, right: r, parent: pa, color: true }
              * rbtE(l, t, lo, k, sl, b1) * rbtE(r, t, k, hi, sr, b1)
              & lo < k & k < hi & size == sl + sr + 1 & bh == b1 + 1;
      @*/

    //@ requires rbt(this.root, this.size);
    //@ ensures hasKey(this.root, key) || \result == 0;
    public int get(int key) {
        Entry p = getEntry(key);
        return p == null ? 0 : p.value;
    }

    //@ requires rbt(this.root, this.size);
    //@ ensures \result == hasKey(this.root, key);
    public boolean containsKey(int key) {
        return getEntry(key) != null;
    }

    Entry getEntry(int key) {
        Entry p = root;
        while (p != null) {
            int cmp = compare(key, p.key);
            if (cmp == 0)
                return p;
            else if (cmp < 0)
                p = p.left;
            else
                p = p.right;
        }
        return null;
    }

    //@ requires rbt(this.root, this.size);
    //@ ensures hasKey(this.root, key) && isRbt(this.root) && count(this.root) == this.size;
    public int put(int key, int value) {
        Entry t = root;
        if (t == null) {
            incrementSize();
            root = new Entry(key, value, null);
            return 0;
        }
        while (true) {
            int cmp = compare(key, t.key);
            if (cmp == 0) {
                return t.setValue(value);
            } else if (cmp < 0) {
                if (t.left != null) {
                    t = t.left;
                } else {
                    incrementSize();
                    t.left = new Entry(key, value, t);
                    fixAfterInsertion(t.left);
                    return 0;
                }
            } else { // cmp > 0
                if (t.right != null) {
                    t = t.right;
                } else {
                    incrementSize();
                    t.right = new Entry(key, value, t);
                    fixAfterInsertion(t.right);
                    return 0;
                }
            }
        }
    }

    //@ requires rbt(this.root, this.size);
    //@ ensures !hasKey(this.root, key) && isRbt(this.root) && count(this.root) == this.size;
    public int remove(int key) {
        Entry p = getEntry(key);
        if (p == null)
            return 0;
        int oldValue = p.value;
        deleteEntry(p);
        return oldValue;
    }

    //@ requires rbt(this.root, this.size);
    public int firstKey() {
        return keyOf(firstEntry());
    }

    //@ requires rbt(this.root, this.size);
    public int lastKey() {
        return keyOf(lastEntry());
    }

    //@ requires rbt(this.root, this.size);
    //@ ensures \result == hasValue(this.root, value);
    public boolean containsValue(int value) {
        return root == null ? false : valueSearch(root, value);
    }

    private boolean valueSearch(Entry n, int value) {
        if (value == n.value) return true;
        return (n.left != null && valueSearch(n.left, value))
            || (n.right != null && valueSearch(n.right, value));
    }

    private Entry firstEntry() {
        Entry p = root;
        if (p != null)
            while (p.left != null)
                p = p.left;
        return p;
    }

    private Entry lastEntry() {
        Entry p = root;
        if (p != null)
            while (p.right != null)
                p = p.right;
        return p;
    }

    private void incrementSize() { size = size + 1; }   // JDK: modCount++; size++;
    private void decrementSize() { size = size - 1; }   // JDK: modCount++; size--;

    private void fixAfterInsertion(Entry x) {
        x.color = RED;
        while (x != null && x != root && x.parent.color == RED) {
            if (parentOf(x) == leftOf(parentOf(parentOf(x)))) {
                Entry y = rightOf(parentOf(parentOf(x)));
                if (colorOf(y) == RED) {
                    setColor(parentOf(x), BLACK);
                    setColor(y, BLACK);
                    setColor(parentOf(parentOf(x)), RED);
                    x = parentOf(parentOf(x));
                } else {
                    if (x == rightOf(parentOf(x))) {
                        x = parentOf(x);
                        rotateLeft(x);
                    }
                    setColor(parentOf(x), BLACK);
                    setColor(parentOf(parentOf(x)), RED);
                    if (parentOf(parentOf(x)) != null)
                        rotateRight(parentOf(parentOf(x)));
                }
            } else {
                Entry y = leftOf(parentOf(parentOf(x)));
                if (colorOf(y) == RED) {
                    setColor(parentOf(x), BLACK);
                    setColor(y, BLACK);
                    setColor(parentOf(parentOf(x)), RED);
                    x = parentOf(parentOf(x));
                } else {
                    if (x == leftOf(parentOf(x))) {
                        x = parentOf(x);
                        rotateRight(x);
                    }
                    setColor(parentOf(x), BLACK);
                    setColor(parentOf(parentOf(x)), RED);
                    if (parentOf(parentOf(x)) != null)
                        rotateLeft(parentOf(parentOf(x)));
                }
            }
        }
        root.color = BLACK;
    }

    private void deleteEntry(Entry p) {
        decrementSize();
        // If strictly internal, copy the successor's element to p and then make p point to
        // the successor.
        if (p.left != null && p.right != null) {
            Entry s = successor(p);
            p.key = s.key;
            p.value = s.value;
            p = s;
        } // p has 2 children

        // Start fixup at the replacement node, if it exists.
        Entry replacement = (p.left != null ? p.left : p.right);

        if (replacement != null) {
            // Link the replacement to the parent.
            replacement.parent = p.parent;
            if (p.parent == null)
                root = replacement;
            else if (p == p.parent.left)
                p.parent.left = replacement;
            else
                p.parent.right = replacement;

            // Null out the links so they are OK to use by fixAfterDeletion.
            p.left = null;
            p.right = null;
            p.parent = null;

            // Fix the replacement.
            if (p.color == BLACK)
                fixAfterDeletion(replacement);
        } else if (p.parent == null) { // return if we are the only node.
            root = null;
        } else { // No children. Use self as phantom replacement and unlink.
            if (p.color == BLACK)
                fixAfterDeletion(p);

            if (p.parent != null) {
                if (p == p.parent.left)
                    p.parent.left = null;
                else if (p == p.parent.right)
                    p.parent.right = null;
                p.parent = null;
            }
        }
    }

    private void fixAfterDeletion(Entry x) {
        while (x != root && colorOf(x) == BLACK) {
            if (x == leftOf(parentOf(x))) {
                Entry sib = rightOf(parentOf(x));

                if (colorOf(sib) == RED) {
                    setColor(sib, BLACK);
                    setColor(parentOf(x), RED);
                    rotateLeft(parentOf(x));
                    sib = rightOf(parentOf(x));
                }

                if (colorOf(leftOf(sib)) == BLACK &&
                    colorOf(rightOf(sib)) == BLACK) {
                    setColor(sib, RED);
                    x = parentOf(x);
                } else {
                    if (colorOf(rightOf(sib)) == BLACK) {
                        setColor(leftOf(sib), BLACK);
                        setColor(sib, RED);
                        rotateRight(sib);
                        sib = rightOf(parentOf(x));
                    }
                    setColor(sib, colorOf(parentOf(x)));
                    setColor(parentOf(x), BLACK);
                    setColor(rightOf(sib), BLACK);
                    rotateLeft(parentOf(x));
                    x = root;
                }
            } else { // symmetric
                Entry sib = leftOf(parentOf(x));

                if (colorOf(sib) == RED) {
                    setColor(sib, BLACK);
                    setColor(parentOf(x), RED);
                    rotateRight(parentOf(x));
                    sib = leftOf(parentOf(x));
                }

                if (colorOf(rightOf(sib)) == BLACK &&
                    colorOf(leftOf(sib)) == BLACK) {
                    setColor(sib, RED);
                    x = parentOf(x);
                } else {
                    if (colorOf(leftOf(sib)) == BLACK) {
                        setColor(rightOf(sib), BLACK);
                        setColor(sib, RED);
                        rotateLeft(sib);
                        sib = leftOf(parentOf(x));
                    }
                    setColor(sib, colorOf(parentOf(x)));
                    setColor(parentOf(x), BLACK);
                    setColor(leftOf(sib), BLACK);
                    rotateRight(parentOf(x));
                    x = root;
                }
            }
        }
        setColor(x, BLACK);
    }

    private void rotateLeft(Entry p) {
        Entry r = p.right;
        p.right = r.left;
        if (r.left != null)
            r.left.parent = p;
        r.parent = p.parent;
        if (p.parent == null)
            root = r;
        else if (p.parent.left == p)
            p.parent.left = r;
        else
            p.parent.right = r;
        r.left = p;
        p.parent = r;
    }

    private void rotateRight(Entry p) {
        Entry l = p.left;
        p.left = l.right;
        if (l.right != null)
            l.right.parent = p;
        l.parent = p.parent;
        if (p.parent == null)
            root = l;
        else if (p.parent.right == p)
            p.parent.right = l;
        else
            p.parent.left = l;
        l.right = p;
        p.parent = l;
    }

    static int compare(int k1, int k2) {
        return k1 < k2 ? -1 : (k1 == k2 ? 0 : 1);
    }

    static int keyOf(Entry e) {
        assert e != null;
        return e.key;
    }

    static Entry successor(Entry t) {
        if (t == null)
            return null;
        else if (t.right != null) {
            Entry p = t.right;
            while (p.left != null)
                p = p.left;
            return p;
        } else {
            Entry p = t.parent;
            Entry ch = t;
            while (p != null && ch == p.right) {
                ch = p;
                p = p.parent;
            }
            return p;
        }
    }

    private static boolean colorOf(Entry p) {
        return (p == null ? BLACK : p.color);
    }

    private static Entry parentOf(Entry p) {
        return (p == null ? null : p.parent);
    }

    private static void setColor(Entry p, boolean c) {
        if (p != null)
            p.color = c;
    }

    private static Entry leftOf(Entry p) {
        return (p == null) ? null : p.left;
    }

    private static Entry rightOf(Entry p) {
        return (p == null) ? null : p.right;
    }

    static boolean isRbt(Entry root) {
        if (root == null) return true;
        return root.color == BLACK && wellConnected(root, null) && redConsistent(root)
            && blackHeight(root) >= 0 && ordered(root, false, 0, false, 0);
    }

    static boolean wellConnected(Entry t, Entry expectedParent) {
        if (t == null) return true;
        if (t.parent != expectedParent) return false;
        if (t.left != null && t.left == t.right) return false;
        return wellConnected(t.left, t) && wellConnected(t.right, t);
    }

    static boolean redConsistent(Entry t) {
        if (t == null) return true;
        if (t.color == RED && (colorOf(t.left) == RED || colorOf(t.right) == RED)) return false;
        return redConsistent(t.left) && redConsistent(t.right);
    }

    static int blackHeight(Entry t) {
        if (t == null) return 0;
        int l = blackHeight(t.left);
        int r = blackHeight(t.right);
        if (l < 0 || r < 0 || l != r) return -1;
        return t.color ? l + 1 : l;
    }

    static boolean ordered(Entry t, boolean hasLo, int lo, boolean hasHi, int hi) {
        if (t == null) return true;
        if (hasLo && t.key <= lo) return false;
        if (hasHi && t.key >= hi) return false;
        return ordered(t.left, hasLo, lo, true, t.key) && ordered(t.right, true, t.key, hasHi, hi);
    }

    static boolean hasValue(Entry t, int v) {
        if (t == null) return false;
        return t.value == v || hasValue(t.left, v) || hasValue(t.right, v);
    }

    static boolean hasKey(Entry t, int k) {
        if (t == null) return false;
        if (t.key == k) return true;
        return k < t.key ? hasKey(t.left, k) : hasKey(t.right, k);
    }

    static int count(Entry t) {
        if (t == null) return 0;
        return 1 + count(t.left) + count(t.right);
    }
}
