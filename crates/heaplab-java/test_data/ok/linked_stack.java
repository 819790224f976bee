package course.lists;

import java.util.Iterator;
import java.util.NoSuchElementException;

/** A generic linked stack as course code writes it, with JML-style specs added. */
public class LinkedStack<Item> implements Iterable<Item> {
    private Node first;
    private int n;

    private class Node {
        private Item item;
        private Node next;
    }

    //@ pred stack(Node x, int k) := x == null & k == 0 | exists Object i, Node nx, int m. x -> Node { item: i, next: nx } * stack(nx, m) & k == m + 1;

    public LinkedStack() {
        first = null;
        n = 0;
        assert check();
    }

    //@ requires stack(this.first, this.n);
    //@ ensures \result == (this.n == 0);
    public boolean isEmpty() {
        return first == null;
    }

    //@ requires stack(this.first, this.n);
    //@ ensures this.n == \old(this.n) + 1 && this.first.item == item;
    public void push(Item item) {
        Node oldfirst = first;
        first = new Node();
        first.item = item;
        first.next = oldfirst;
        n++;
        assert check();
    }

    /*@ requires stack(first, n);
      @ ensures n == \old(n) - 1;
      @*/
    public Item pop() {
        if (isEmpty()) throw new NoSuchElementException("Stack underflow");
        Item item = first.item;
        first = first.next;
        n--;
        assert check();
        return item;
    }

    public Iterator<Item> iterator() {
        return new Iterator<Item>() {
            private Node current = first;
            public boolean hasNext() { return current != null; }
            public Item next() { Item i = current.item; current = current.next; return i; }
        };
    }

    private boolean check() {
        if (n < 0) return false;
        int count = 0;
        for (Node x = first; x != null && count <= n; x = x.next) count++;
        return count == n;
    }

    public static void main(String[] args) {
        LinkedStack<String> s = new LinkedStack<String>();
        s.push("to");
        System.out.println(s.pop());
    }
}
