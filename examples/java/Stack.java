/**
 * A stack over a linked list in the style of Weiss's StackLi: push, pop, peek (top),
 * topAndPop, isEmpty, makeEmpty. An underflow is a failed assertion, as in examples/stack.hl.
 *
 * The Java twin of examples/stack.hl (same classes, methods and branches).
 */
public class Stack {
    static class ListNode {
        int element;
        ListNode next;

        ListNode(int element, ListNode next) {
            this.element = element;
            this.next = next;
        }
    }

    ListNode topOfStack;

    /*@ pred stack(ListNode root) :=
            root == null
          | exists int e, ListNode n. root -> ListNode { element: e, next: n } * stack(n);
      @*/

    /*@ pred stackN(ListNode root, int n) :=
            root == null & n == 0
          | exists int e, ListNode nx, int m.
              root -> ListNode { element: e, next: nx } * stackN(nx, m) & n == m + 1;
      @*/

    //@ requires stack(this.topOfStack);
    //@ ensures \result == (this.topOfStack == null);
    public boolean isEmpty() {
        return topOfStack == null;
    }

    //@ requires stack(this.topOfStack);
    //@ ensures this.topOfStack == null;
    public void makeEmpty() {
        topOfStack = null;
    }

    //@ requires stack(this.topOfStack);
    //@ ensures this.topOfStack.element == x && depth(this.topOfStack) == \old(depth(this.topOfStack)) + 1;
    public void push(int x) {
        topOfStack = new ListNode(x, topOfStack);
    }

    //@ requires stack(this.topOfStack);
    //@ ensures depth(this.topOfStack) == \old(depth(this.topOfStack)) - 1;
    public void pop() {
        assert !isEmpty();   // Weiss: throw new Underflow()
        topOfStack = topOfStack.next;
    }

    /** Weiss's top(): the most recently pushed element. */
    //@ requires stack(this.topOfStack);
    //@ ensures \result == this.topOfStack.element;
    public int peek() {
        assert !isEmpty();
        return topOfStack.element;
    }

    //@ requires stack(this.topOfStack);
    //@ ensures \result == \old(topElement(this.topOfStack));
    //@ ensures depth(this.topOfStack) == \old(depth(this.topOfStack)) - 1;
    public int topAndPop() {
        assert !isEmpty();
        int topItem = topOfStack.element;
        topOfStack = topOfStack.next;
        return topItem;
    }

    /** The top element, 0 for an empty stack. */
    static int topElement(ListNode p) {
        return p == null ? 0 : p.element;
    }

    static int depth(ListNode p) {
        if (p == null) return 0;
        return 1 + depth(p.next);
    }
}
