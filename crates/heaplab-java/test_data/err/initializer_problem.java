/** A local whose initializer is outside the subset is one problem, not one per later use. */
public class Sizes {
    private Object[] items = new Object[4];

    //@ requires this.items != null;
    public int total() {
        int n = items.hashCode();
        int twice = n + n;
        return twice + n;
    }
}
