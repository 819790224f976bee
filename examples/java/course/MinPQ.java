package course;

import java.util.Comparator;
import java.util.NoSuchElementException;

/**
 * A priority queue of generic keys on a binary heap in an array (entries 1..n), with
 * resizing, in natural order or by a Comparator; swim, sink, less and exch as in the textbook.
 */
public class MinPQ<Key> {
    private Key[] pq;
    private int n;
    private Comparator<Key> comparator;

    public MinPQ(int capacity) {
        pq = (Key[]) new Object[capacity + 1];
        n = 0;
    }

    public MinPQ() {
        this(1);
    }

    public MinPQ(Comparator<Key> comparator) {
        this.comparator = comparator;
        pq = (Key[]) new Object[2];
        n = 0;
    }

    //@ requires this.pq != null & this.n >= 0 & this.n < this.pq.length & isMinHeap();
    public boolean isEmpty() {
        return n == 0;
    }

    //@ requires this.pq != null & this.n >= 0 & this.n < this.pq.length & isMinHeap();
    public Key min() {
        if (isEmpty()) throw new NoSuchElementException("priority queue underflow");
        return pq[1];
    }

    private void resize(int capacity) {
        Key[] temp = (Key[]) new Object[capacity];
        for (int i = 1; i <= n; i++) temp[i] = pq[i];
        pq = temp;
    }

    //@ requires this.pq != null & this.n >= 0 & this.n < this.pq.length & isMinHeap();
    //@ ensures this.n == \old(this.n) + 1;
    public void insert(Key x) {
        if (n == pq.length - 1) resize(2 * pq.length);
        pq[++n] = x;
        swim(n);
        assert isMinHeap();
    }

    //@ requires this.pq != null & this.n >= 0 & this.n < this.pq.length & isMinHeap();
    //@ ensures this.n == \old(this.n) - 1;
    public Key delMin() {
        if (isEmpty()) throw new NoSuchElementException("priority queue underflow");
        Key min = pq[1];
        exch(1, n--);
        sink(1);
        pq[n + 1] = null;
        assert isMinHeap();
        return min;
    }

    private void swim(int k) {
        while (k > 1 && greater(k / 2, k)) {
            exch(k / 2, k);
            k = k / 2;
        }
    }

    private void sink(int k) {
        while (2 * k <= n) {
            int j = 2 * k;
            if (j < n && greater(j, j + 1)) j++;
            if (!greater(k, j)) break;
            exch(k, j);
            k = j;
        }
    }

    private boolean greater(int i, int j) {
        if (comparator == null) {
            return ((Comparable<Key>) pq[i]).compareTo(pq[j]) > 0;
        } else {
            return comparator.compare(pq[i], pq[j]) > 0;
        }
    }

    private void exch(int i, int j) {
        Key swap = pq[i];
        pq[i] = pq[j];
        pq[j] = swap;
    }

    /** Entries 1..n are set and heap-ordered; the rest of the array is empty. */
    private boolean isMinHeap() {
        if (pq[0] != null) return false;
        for (int i = 1; i <= n; i++) {
            if (pq[i] == null) return false;
        }
        for (int i = n + 1; i < pq.length; i++) {
            if (pq[i] != null) return false;
        }
        return isMinHeapOrdered(1);
    }

    private boolean isMinHeapOrdered(int k) {
        if (k > n) return true;
        int left = 2 * k;
        int right = 2 * k + 1;
        if (left <= n && greater(k, left)) return false;
        if (right <= n && greater(k, right)) return false;
        return isMinHeapOrdered(left) && isMinHeapOrdered(right);
    }
}
