import java.util.ArrayList;

// A class extending a JDK class (other than an exception) is outside the subset: a diagnostic
// names the construct and its place for each method; a method with a spec is an error, the
// others are left out with a warning. Implementing a JDK interface other than Comparable,
// Iterable and the marker interfaces is a warning at the `implements` clause: the methods are
// explored as plain methods.
public class Stack extends ArrayList<Integer> {
    int top;

    //@ requires true;
    int peek() {
        return top;
    }

    int depth() {
        return top + 1;
    }
}

class Task implements Runnable {
    int runs;

    public void run() {
        runs = runs + 1;
    }
}

class Copyable implements Cloneable, java.io.Serializable {
    int n;

    int next() {
        return n + 1;
    }
}
