package course;

/**
 * An integer list as object-oriented courses build it with inheritance: an abstract class
 * with one subclass for the empty list and one for a cell, and every operation a method each
 * subclass overrides (the "composite" pattern, no `if (list == null)` anywhere).
 */
public abstract class IntList {
    /*@ pred list(IntList l) :=
            l -> Empty { }
          | exists int h, IntList t. l -> Cons { head: h, tail: t } * list(t);
      @*/

    /*@ pred sorted(IntList l, int lo) :=
            l -> Empty { }
          | exists int h, IntList t. l -> Cons { head: h, tail: t } * sorted(t, h) & lo <= h;
      @*/

    /** The number of cells. */
    //@ requires list(this);
    //@ ensures \result >= 0;
    public abstract int size();

    /** The sum of the elements. */
    //@ requires list(this);
    public abstract int sum();

    /** Whether `x` is an element. */
    //@ requires list(this);
    public abstract boolean contains(int x);

    /** The list with `x` inserted before the first element not smaller than it. */
    //@ requires exists int lo. sorted(this, lo);
    //@ ensures \result.contains(x);
    public abstract IntList insertSorted(int x);

    /** The first element; an empty list has none. */
    //@ requires list(this);
    public int first() {
        if (this instanceof Cons c) {
            return c.head;
        }
        throw new java.util.NoSuchElementException("empty list");
    }

    /** Whether the list has no cells (shared by both subclasses). */
    public boolean isEmpty() {
        return size() == 0;
    }
}

class Empty extends IntList {
    public int size() {
        return 0;
    }

    public int sum() {
        return 0;
    }

    public boolean contains(int x) {
        return false;
    }

    public IntList insertSorted(int x) {
        return new Cons(x, this);
    }
}

class Cons extends IntList {
    int head;
    IntList tail;

    Cons(int head, IntList tail) {
        this.head = head;
        this.tail = tail;
    }

    public int size() {
        return 1 + tail.size();
    }

    public int sum() {
        return head + tail.sum();
    }

    public boolean contains(int x) {
        return head == x || tail.contains(x);
    }

    public IntList insertSorted(int x) {
        if (x <= head) {
            return new Cons(x, this);
        }
        tail = tail.insertSorted(x);
        return this;
    }
}
