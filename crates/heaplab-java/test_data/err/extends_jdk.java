import java.util.ArrayList;

// Classes extending a JDK class (other than an exception) or implementing a JDK interface
// other than Comparable and Iterable are outside the subset: a diagnostic names the construct
// and its place; a method with a spec is an error, the others are left out with a warning.
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
