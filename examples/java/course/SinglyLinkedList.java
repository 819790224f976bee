package course;

/** A basic singly linked list with head and tail references, as in a data-structures course. */
public class SinglyLinkedList<E> implements Cloneable {
  private static class Node<E> {
    private E element;
    private Node<E> next;
    public Node(E e, Node<E> n) { element = e; next = n; }
    public E getElement() { return element; }
    public Node<E> getNext() { return next; }
    public void setNext(Node<E> n) { next = n; }
  }

  //@ pred seg(Node x, Node y, int k) := x == y & k == 0 | exists Object e, Node nx, int m. x -> Node { element: e, next: nx } * seg(nx, y, m) & k == m + 1 & x != y;
  //@ pred list(Node h, Node t, int k) := h == null & t == null & k == 0 | exists Object e. seg(h, t, k - 1) * t -> Node { element: e, next: null };

  private Node<E> head = null;
  private Node<E> tail = null;
  private int size = 0;

  public SinglyLinkedList() { }

  public int size() { return size; }
  public boolean isEmpty() { return size == 0; }

  public E first() {
    if (isEmpty()) return null;
    return head.getElement();
  }

  public E last() {
    if (isEmpty()) return null;
    return tail.getElement();
  }

  //@ requires list(this.head, this.tail, this.size);
  //@ ensures list(this.head, this.tail, this.size) & this.size == \old(this.size) + 1;
  public void addFirst(E e) {
    head = new Node<>(e, head);
    if (size == 0)
      tail = head;
    size++;
  }

  //@ requires list(this.head, this.tail, this.size);
  //@ ensures list(this.head, this.tail, this.size);
  public void addLast(E e) {
    Node<E> newest = new Node<>(e, null);
    if (isEmpty())
      head = newest;
    else
      tail.setNext(newest);
    tail = newest;
    size++;
  }

  //@ requires list(this.head, this.tail, this.size);
  //@ ensures list(this.head, this.tail, this.size);
  public E removeFirst() {
    if (isEmpty()) return null;
    E answer = head.getElement();
    head = head.getNext();
    size--;
    if (size == 0)
      tail = null;
    return answer;
  }

  @Override
  public boolean equals(Object o) {
    if (o == null) return false;
    if (getClass() != o.getClass()) return false;
    SinglyLinkedList other = (SinglyLinkedList) o;
    if (size != other.size) return false;
    Node walkA = head;
    Node walkB = other.head;
    while (walkA != null) {
      if (!walkA.getElement().equals(walkB.getElement())) return false;
      walkA = walkA.getNext();
      walkB = walkB.getNext();
    }
    return true;
  }

  public String toString() {
    StringBuilder sb = new StringBuilder("(");
    Node<E> walk = head;
    while (walk != null) {
      sb.append(walk.getElement());
      if (walk != tail)
        sb.append(", ");
      walk = walk.getNext();
    }
    sb.append(")");
    return sb.toString();
  }
}
