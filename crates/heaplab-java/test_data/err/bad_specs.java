public class Specs {
    Node head;
    int size;

    static class Node {
        int v;
        Node next;
    }

    //@ pred list(Node x) := x == null | exists int v, Node n. x -> Node { v: v, next: n } * list(n);
    //@ pred list(Node x) := x == null;

    //@ requires (\forall int i; i >= 0);
    public void a() { }

    //@ requires list(head) & size > 0 ==> head != null;
    public void b() { }

    //@ requires exists Widget w. list(head);
    public void c() { }

    //@ requires list(head) & grow() > 0;
    public void d() { }

    int grow() {
        size++;
        return size;
    }

    //@ assignable size;
    //@ ensures size == \old(size);
    public void e() { }
}
