// A file with `long` runs under `ints java64`: each `int` result is wrapped back to 32 bits
// (`(e << 32) >> 32`), `long` results are not, and `(int)` narrows.
public class Totals {
    long total;
    int count;

    void add(int x) {
        total += x;
        count++;
    }

    int twice(int a) {
        return a * 2;
    }

    long wide(int a) {
        return (long) a * 2;
    }

    int low(long l) {
        return (int) l;
    }
}
