package course;

import java.util.Iterator;
import java.util.NoSuchElementException;

/** A stack of generic items backed by an array that doubles and halves. */
public class ResizingArrayStack<Item> implements Iterable<Item> {

    // initial capacity of underlying resizing array
    private static final int INIT_CAPACITY = 2;

    private Item[] a;         // array of items
    private int n;            // number of elements on stack


    /** Initializes an empty stack. */
    public ResizingArrayStack() {
        a = (Item[]) new Object[INIT_CAPACITY];
        n = 0;
    }

    //@ requires this.a != null & 0 <= this.n & this.n <= this.a.length & this.a.length >= 1;
    //@ ensures \result == (this.n == 0);
    public boolean isEmpty() {
        return n == 0;
    }

    //@ requires this.a != null & 0 <= this.n & this.n <= this.a.length & this.a.length >= 1;
    //@ ensures \result == this.n;
    public int size() {
        return n;
    }

    // resize the underlying array holding the elements
    private void resize(int capacity) {
        assert capacity >= n;
        Item[] copy = (Item[]) new Object[capacity];
        for (int i = 0; i < n; i++) {
            copy[i] = a[i];
        }
        a = copy;
    }

    //@ requires this.a != null & 0 <= this.n & this.n <= this.a.length & this.a.length >= 1 & this.a.length <= 4;
    //@ ensures this.n == \old(this.n) + 1;
    public void push(Item item) {
        if (n == a.length) resize(2*a.length);    // double size of array if necessary
        a[n++] = item;                            // add item
    }

    //@ requires this.a != null & 0 <= this.n & this.n <= this.a.length & this.a.length >= 1 & this.a.length <= 8;
    //@ ensures this.n == \old(this.n) - 1;
    public Item pop() {
        if (isEmpty()) throw new NoSuchElementException("Stack underflow");
        Item item = a[n-1];
        a[n-1] = null;                              // to avoid loitering
        n--;
        // shrink size of array if necessary
        if (n > 0 && n == a.length/4) resize(a.length/2);
        return item;
    }

    //@ requires this.a != null & 0 <= this.n & this.n <= this.a.length & this.a.length >= 1;
    public Item peek() {
        if (isEmpty()) throw new NoSuchElementException("Stack underflow");
        return a[n-1];
    }

    public Iterator<Item> iterator() {
        return new ReverseArrayIterator();
    }

    private class ReverseArrayIterator implements Iterator<Item> {
        private int i;

        public ReverseArrayIterator() {
            i = n-1;
        }

        public boolean hasNext() {
            return i >= 0;
        }

        public Item next() {
            if (!hasNext()) throw new NoSuchElementException();
            return a[i--];
        }
    }
}
