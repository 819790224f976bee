import java.util.NoSuchElementException;

// Classes, constructors, overloading, static and instance methods, exceptions and their
// hierarchy, as Java runs them; see Expressions.java for how these files are used.
public class Objects {
    private Node first;
    private int n = 0;

    private static class Node {
        private int item;
        private Node next;
        private int visits = 1;

        Node(int item, Node next) {
            this.item = item;
            this.next = next;
        }

        Node(int item) {
            this(item, null);
            visits = 2;
        }
    }

    static class Fault extends RuntimeException {
        Fault(String why) {
            super(why);
        }
    }

    static class WorseFault extends Fault {
        WorseFault() {
            super("worse");
        }
    }

    public Objects() {
        first = null;
    }

    void push(int x) {
        first = new Node(x, first);
        n++;
    }

    void push(int x, int times) {
        for (int i = 0; i < times; i++) push(x);
    }

    int pop() {
        if (first == null) throw new NoSuchElementException("empty");
        int x = first.item;
        first = first.next;
        n--;
        return x;
    }

    int size() {
        return n;
    }

    private static int sum(Node x) {
        return x == null ? 0 : x.item + sum(x.next);
    }

    static int t_constructors_and_overloads() {
        Objects s = new Objects();
        s.push(4);
        s.push(5, 3);
        Node lone = new Node(9);
        return s.size() * 1000 + sum(s.first) * 10 + lone.visits + (lone.next == null ? 100 : 0);
    }

    static int t_pop_empty_throws() {
        Objects s = new Objects();
        return s.pop();
    }

    static int t_catch_by_superclass() {
        int r = 0;
        try {
            throw new WorseFault();
        } catch (Fault f) {
            r += 1;
        }
        try {
            new Objects().pop();
        } catch (RuntimeException e) {
            r += 10;
        }
        try {
            throw new Fault("plain");
        } catch (WorseFault w) {
            r += 100;
        } catch (Fault f) {
            r += 1000;
        }
        return r;
    }

    static int t_uncaught_own_exception() {
        throw new WorseFault();
    }

    static boolean t_equals_is_identity() {
        Object a = new Object();
        Object b = new Object();
        return a.equals(a) && !a.equals(b) && !a.equals(null);
    }

    static int t_instanceof_and_generic_arrays() {
        Node x = new Node(1);
        Node[] nodes = new Node[2];
        nodes[0] = x;
        int r = 0;
        if (x instanceof Node) r += 1;
        if (nodes[1] instanceof Node) r += 10;
        return r + nodes.length * 100;
    }
}
