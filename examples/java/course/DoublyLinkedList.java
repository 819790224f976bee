package course;

import java.util.NoSuchElementException;

/**
 * A doubly linked list of generic items with head and tail pointers: addFirst, addLast,
 * removeFirst, removeLast, and removing the first occurrence of an item.
 */
public class DoublyLinkedList<Item> {
    private Node head;
    private Node tail;
    private int size;

    private class Node {
        private Item item;
        private Node prev;
        private Node next;

        Node(Item item, Node prev, Node next) {
            this.item = item;
            this.prev = prev;
            this.next = next;
        }
    }

    //@ pred dseg(Node x, Node p, Node y, Node last, int k) := x == y & p == last & k == 0 | exists Object i, Node nx, int m. x -> Node { item: i, prev: p, next: nx } * dseg(nx, x, y, last, m) & k == m + 1;
    //@ pred dll(Node h, Node t, int k) := dseg(h, null, null, t, k);

    //@ requires dll(this.head, this.tail, this.size);
    //@ ensures this.size == \old(this.size) + 1 && this.head.item == item;
    public void addFirst(Item item) {
        Node node = new Node(item, null, head);
        if (head == null) tail = node;
        else head.prev = node;
        head = node;
        size++;
    }

    //@ requires dll(this.head, this.tail, this.size);
    //@ ensures this.size == \old(this.size) + 1 && this.tail.item == item;
    public void addLast(Item item) {
        Node node = new Node(item, tail, null);
        if (tail == null) head = node;
        else tail.next = node;
        tail = node;
        size++;
    }

    //@ requires dll(this.head, this.tail, this.size);
    //@ ensures this.size == \old(this.size) - 1;
    public Item removeFirst() {
        if (head == null) throw new NoSuchElementException("empty list");
        Item item = head.item;
        head = head.next;
        if (head == null) tail = null;
        else head.prev = null;
        size--;
        return item;
    }

    //@ requires dll(this.head, this.tail, this.size);
    //@ ensures this.size == \old(this.size) - 1;
    public Item removeLast() {
        if (tail == null) throw new NoSuchElementException("empty list");
        Item item = tail.item;
        tail = tail.prev;
        if (tail == null) head = null;
        else tail.next = null;
        size--;
        return item;
    }

    //@ requires dll(this.head, this.tail, this.size);
    public boolean remove(Item item) {
        for (Node x = head; x != null; x = x.next) {
            if (x.item == item) {
                if (x.prev == null) head = x.next;
                else x.prev.next = x.next;
                if (x.next == null) tail = x.prev;
                else x.next.prev = x.prev;
                size--;
                return true;
            }
        }
        return false;
    }
}
