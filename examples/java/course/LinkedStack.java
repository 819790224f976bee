package course;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A stack of generic items on a singly linked list, as an algorithms course writes it (a
 * private inner node class, a size counter, an invariant check run by `assert`). HeapLab
 * reads it as it is: only the `//@` comments are added.
 */
public class LinkedStack<Item> implements Iterable<Item> {
    private Node top;
    private int size;

    private class Node {
        private Item item;
        private Node next;
    }

    //@ pred nodes(Node x, int k) := x == null & k == 0 | exists Object i, Node nx, int m. x -> Node { item: i, next: nx } * nodes(nx, m) & k == m + 1;

    public LinkedStack() {
        top = null;
        size = 0;
        assert invariant();
    }

    //@ requires nodes(this.top, this.size);
    //@ ensures \result == (this.size == 0);
    public boolean isEmpty() {
        return top == null;
    }

    //@ requires nodes(this.top, this.size);
    //@ ensures \result == this.size;
    public int size() {
        return size;
    }

    //@ requires nodes(this.top, this.size);
    //@ ensures this.size == \old(this.size) + 1 && this.top.item == item;
    public void push(Item item) {
        Node previous = top;
        top = new Node();
        top.item = item;
        top.next = previous;
        size++;
        assert invariant();
    }

    //@ requires nodes(this.top, this.size);
    //@ ensures this.size == \old(this.size) - 1;
    public Item pop() {
        if (isEmpty()) throw new NoSuchElementException("stack underflow");
        Item item = top.item;
        top = top.next;
        size--;
        assert invariant();
        return item;
    }

    //@ requires nodes(this.top, this.size);
    //@ ensures \result == this.top.item;
    public Item peek() {
        if (isEmpty()) throw new NoSuchElementException("stack underflow");
        return top.item;
    }

    /** The size counter agrees with the list. */
    private boolean invariant() {
        if (size < 0) return false;
        int counted = 0;
        for (Node x = top; x != null && counted <= size; x = x.next) counted++;
        return counted == size;
    }

    public Iterator<Item> iterator() {
        return new ListIterator();
    }

    private class ListIterator implements Iterator<Item> {
        private Node current = top;

        public boolean hasNext() {
            return current != null;
        }

        public Item next() {
            if (!hasNext()) throw new NoSuchElementException();
            Item item = current.item;
            current = current.next;
            return item;
        }
    }

    public String toString() {
        StringBuilder s = new StringBuilder();
        for (Item item : this) s.append(item).append(' ');
        return s.toString();
    }
}
