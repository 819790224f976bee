import java.util.function.IntUnaryOperator;

/** Constructs outside the subset in methods without a spec are warnings; the rest explores. */
public class Tools {
    private int[] data = new int[4];
    private String name;

    public int twice(int x) {
        IntUnaryOperator f = y -> y * 2;
        return f.applyAsInt(x);
    }

    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append(name);
        return sb.toString();
    }

    public int usesDescribe() {
        return describe().length();
    }

    public double big(double x) {
        return x * 2.0;
    }

    public int sum() {
        int s = 0;
        for (int x : data) s += x;
        return s;
    }

    //@ requires this.data != null;
    public void bump(int i) {
        data[i]++;
    }
}
