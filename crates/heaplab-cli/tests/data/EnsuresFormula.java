public class EnsuresFormula {
    private static class Node {
        int key; Node left, right;
        Node(int key) { this.key = key; }
    }
    private Node root;

    /*@ pred bst(Node t, int lo, int hi) :=
      @     t == null
      @   | exists int k, Node l, Node r. t -> Node { key: k, left: l, right: r }
      @       * bst(l, lo, k) * bst(r, k, hi) & lo < k & k < hi;
      @*/

    //@ requires exists int lo, int hi. bst(root, lo, hi);
    //@ ensures exists int lo, int hi. bst(root, lo, hi);
    public void insert(int x) { root = insert(root, x); }

    private Node insert(Node t, int x) {
        if (t == null) return new Node(x);
        if (x < t.key) t.left = insert(t.left, x);
        else if (x > t.key) t.right = insert(t.right, x);
        return t;
    }

    //@ requires exists int lo, int hi. bst(root, lo, hi);
    //@ ensures exists int lo, int hi. bst(root, lo, hi);
    public void insertBad(int x) {
        if (root == null) { root = new Node(x); return; }
        if (x < root.key) { Node n = new Node(x); n.right = root.right; root.right = n; }
    }
}
