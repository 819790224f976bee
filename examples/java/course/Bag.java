package course;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 *  A bag (multiset) of generic items, as an algorithms course writes it: a singly linked
 *  list with a size counter and an iterator.
 */
public class Bag<Item> implements Iterable<Item> {
    private Node<Item> first;    // beginning of bag
    private int n;               // number of elements in bag

    // helper linked list class
    private static class Node<Item> {
        private Item item;
        private Node<Item> next;
    }

    //@ pred list(Node<Item> x, int len) := x == null & len == 0 | exists Node<Item> nx, Object it. x -> Node { item: it, next: nx } * list(nx, len - 1) & len > 0;

    /** Initializes an empty bag. */
    public Bag() {
        first = null;
        n = 0;
    }

    //@ requires list(this.first, this.n);
    //@ ensures \result == (this.n == 0);
    public boolean isEmpty() {
        return first == null;
    }

    //@ requires list(this.first, this.n);
    //@ ensures \result == this.n;
    public int size() {
        return n;
    }

    //@ requires list(this.first, this.n);
    //@ ensures list(this.first, this.n) & this.n == \old(this.n) + 1;
    public void add(Item item) {
        Node<Item> oldfirst = first;
        first = new Node<Item>();
        first.item = item;
        first.next = oldfirst;
        n++;
    }

    //@ requires list(this.first, this.n) & item != null;
    public boolean contains(Item item) {
        for (Node<Item> x = first; x != null; x = x.next) {
            if (item.equals(x.item)) return true;
        }
        return false;
    }

    public Iterator<Item> iterator()  {
        return new LinkedIterator(first);
    }

    private class LinkedIterator implements Iterator<Item> {
        private Node<Item> current;

        public LinkedIterator(Node<Item> first) {
            current = first;
        }

        public boolean hasNext()  { return current != null;                     }
        public void remove()      { throw new UnsupportedOperationException();  }

        public Item next() {
            if (!hasNext()) throw new NoSuchElementException();
            Item item = current.item;
            current = current.next;
            return item;
        }
    }

    public String toString() {
        StringBuilder s = new StringBuilder();
        for (Item item : this) {
            s.append(item);
            s.append(' ');
        }
        return s.toString();
    }
}
