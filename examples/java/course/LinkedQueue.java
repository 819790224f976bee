package course;

import java.util.NoSuchElementException;

/** A FIFO queue of generic items on a singly linked list with head and tail pointers. */
public class LinkedQueue<Item> {
    private Node head;    // the least recently added node
    private Node tail;    // the most recently added node
    private int count;

    private class Node {
        private Item item;
        private Node next;
    }

    //@ pred seg(Node x, Node y, int k) := x == y & k == 0 | exists Object i, Node nx, int m. x -> Node { item: i, next: nx } * seg(nx, y, m) & k == m + 1 & x != y;
    //@ pred queue(Node h, Node t, int k) := h == null & t == null & k == 0 | exists Object i. seg(h, t, k - 1) * t -> Node { item: i, next: null };

    //@ requires queue(this.head, this.tail, this.count);
    public boolean isEmpty() {
        return head == null;
    }

    //@ requires queue(this.head, this.tail, this.count);
    //@ ensures this.count == \old(this.count) + 1 && this.tail.item == item;
    public void enqueue(Item item) {
        Node last = tail;
        tail = new Node();
        tail.item = item;
        tail.next = null;
        if (isEmpty()) head = tail;
        else last.next = tail;
        count++;
    }

    //@ requires queue(this.head, this.tail, this.count);
    //@ ensures this.count == \old(this.count) - 1;
    public Item dequeue() {
        if (isEmpty()) throw new NoSuchElementException("queue underflow");
        Item item = head.item;
        head = head.next;
        count--;
        if (isEmpty()) tail = null;
        return item;
    }

    //@ requires queue(this.head, this.tail, this.count);
    public Item peek() {
        if (isEmpty()) throw new NoSuchElementException("queue underflow");
        return head.item;
    }
}
