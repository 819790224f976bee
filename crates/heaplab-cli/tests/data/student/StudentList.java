package student;

/**
 * A student's singly linked list whose `remove` never removes the first cell (the twin of
 * ../student_list.hl). Used by tests/error_tests.rs: the JUnit export must hold a failing
 * StudentListRemoveErrorTest naming the broken `ensures`.
 */
public class StudentList {
    private Node head;
    private int size;

    private static class Node {
        private int elem;
        private Node next;
    }

    //@ pred nodes(Node x, int k) := x == null & k == 0 | exists int v, Node nx, int m. x -> Node { elem: v, next: nx } * nodes(nx, m) & k == m + 1;

    // Removes the first node holding x; returns whether one was found (a list whose first
    // node holds x must lose a node).
    //@ requires nodes(this.head, this.size);
    //@ ensures \result ? this.size == \old(this.size) - 1 : this.size == \old(this.size);
    //@ ensures \old(this.head == null || this.head.elem != x) || \result;
    public boolean remove(int x) {
        if (head == null) return false;
        Node prev = head;
        Node cur = head.next;
        while (cur != null) {
            if (cur.elem == x) {
                prev.next = cur.next;
                size = size - 1;
                return true;
            }
            prev = cur;
            cur = cur.next;
        }
        return false;
    }
}
