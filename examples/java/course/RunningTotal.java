package course;

import java.util.NoSuchElementException;

/**
 * A bag of `int` readings on a singly linked list that keeps their sum in a `long`, so the
 * total of many large readings does not overflow while an `int` running sum would. It mixes
 * Java's two widths: `int` arithmetic wraps at 32 bits, `long` arithmetic at 64, and
 * `(int)` keeps the low 32 bits.
 */
public class RunningTotal {
    private Node first;
    private int n;
    private long total;

    private static class Node {
        int reading;
        Node next;
    }

    //@ pred nodes(Node x, int k) := x == null & k == 0 | exists int r, Node nx, int m. x -> Node { reading: r, next: nx } * nodes(nx, m) & k == m + 1;

    //@ requires nodes(this.first, this.n);
    //@ ensures this.n == \old(this.n) + 1;
    public void add(int reading) {
        Node old = first;
        first = new Node();
        first.reading = reading;
        first.next = old;
        n++;
        total += reading;
    }

    //@ requires nodes(this.first, this.n);
    public long sum() {
        long s = 0;
        for (Node x = first; x != null; x = x.next) {
            s += x.reading;
        }
        return s;
    }

    /** The sum as an `int` running total computes it: wraps past `Integer.MAX_VALUE`. */
    //@ requires nodes(this.first, this.n);
    public int intSum() {
        int s = 0;
        for (Node x = first; x != null; x = x.next) {
            s += x.reading;
        }
        return s;
    }

    /** Whether the `int` sum of the first two readings overflows where the `long` one does not. */
    //@ requires nodes(this.first, this.n);
    public boolean pairOverflows() {
        if (first == null || first.next == null) throw new NoSuchElementException("fewer than two readings");
        int a = first.reading;
        int b = first.next.reading;
        long wide = (long) a + b;
        int narrow = a + b;
        if (wide != narrow) {
            return true;
        }
        return false;
    }

    /** The mean reading, rounded toward zero. */
    //@ requires nodes(this.first, this.n);
    public int mean() {
        if (n == 0) throw new NoSuchElementException("no readings");
        return (int) (total / n);
    }

    /** Whether the total is past what an `int` holds. */
    //@ requires nodes(this.first, this.n);
    public boolean pastIntRange() {
        return total > 2147483647L || total < -2147483648L;
    }
}
