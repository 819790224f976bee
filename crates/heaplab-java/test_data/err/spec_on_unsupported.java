/** A construct outside the subset in a method with a spec is an error. */
public class Counter {
    private int count;
    private String label;

    //@ requires this.count >= 0;
    public void rename(String to) {
        label = to + "!";
    }

    //@ ensures \result >= 0;
    public int weird() {
        Runnable r = () -> count++;
        r.run();
        return switch (label) { case "a" -> 1; default -> 2; };
    }
}
