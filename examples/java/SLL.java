/**
 * A singly linked list with a head pointer: length, insert (at the front), remove (the first
 * occurrence), reverse. The textbook algorithms.
 *
 * The Java twin of examples/sll.hl (same classes, methods and branches).
 */
public class SLL {
    static class Node {
        int elem;
        Node next;
    }

    Node head;

    //@ pred sll(Node x) := x == null | exists int v, Node n. x -> Node { elem: v, next: n } * sll(n);

    /*@ pred lseg(Node x, Node y) :=
            x == y
          | exists int v, Node n. x -> Node { elem: v, next: n } * lseg(n, y) & x != y;
      @*/

    /** The number of nodes (iterative). */
    //@ requires sll(this.head);
    //@ ensures \result == len(this.head);
    public int length() {
        int n = 0;
        Node p = head;
        while (p != null) {
            n = n + 1;
            p = p.next;
        }
        return n;
    }

    /** Inserts x at the front. */
    //@ requires sll(this.head);
    //@ ensures len(this.head) == \old(len(this.head)) + 1 && this.head.elem == x;
    public void insert(int x) {
        Node n = new Node();
        n.elem = x;
        n.next = head;
        head = n;
    }

    /** Removes the first node holding x; returns whether one was found. */
    //@ requires sll(this.head);
    //@ ensures \result == \old(member(this.head, x));
    //@ ensures \result ? len(this.head) == \old(len(this.head)) - 1 : len(this.head) == \old(len(this.head));
    public boolean remove(int x) {
        if (head == null) return false;
        if (head.elem == x) {
            head = head.next;
            return true;
        }
        Node prev = head;
        Node cur = head.next;
        while (cur != null) {
            if (cur.elem == x) {
                prev.next = cur.next;
                return true;
            }
            prev = cur;
            cur = cur.next;
        }
        return false;
    }

    /** Reverses the list in place. */
    //@ requires sll(this.head);
    //@ ensures len(this.head) == \old(len(this.head));
    //@ ensures this.head == null || this.head.elem == \old(lastElem(this.head));
    public void reverse() {
        Node prev = null;
        Node cur = head;
        while (cur != null) {
            Node next = cur.next;
            cur.next = prev;
            prev = cur;
            cur = next;
        }
        head = prev;
    }

    static int len(Node x) {
        if (x == null) return 0;
        return 1 + len(x.next);
    }

    static boolean member(Node x, int v) {
        if (x == null) return false;
        if (x.elem == v) return true;
        return member(x.next, v);
    }

    /** The element of the last node (0 for the empty list). */
    static int lastElem(Node x) {
        if (x == null) return 0;
        if (x.next == null) return x.elem;
        return lastElem(x.next);
    }
}
