// Bitwise `&` with a low-bit mask, `>>>` by a constant and `~` on `int` (the file has no
// `long`: `ints java32`). Each static `t_*` method is run by the JVM and by HeapLab's
// interpreter; the results mix several inputs so that one wrong case changes the sum.
public class Bits {
    static final int M = 8;

    static int hashOf(int h) {
        return (h & 0x7fffffff) % M;
    }

    static int t_sign_mask() {
        return hashOf(-1) + 10 * hashOf(-2147483648) + 100 * hashOf(2147483647) + 1000 * hashOf(-13);
    }

    static int t_sign_mask_values() {
        int a = -1 & 0x7fffffff;
        int b = -2147483648 & 0x7fffffff;
        int c = 0x7fffffff & -7;
        return (a == 2147483647 ? 1 : 0) + (b == 0 ? 10 : 0) + (c == 2147483641 ? 100 : 0);
    }

    static int t_low_bits() {
        int x = -13;
        int y = 1000;
        return (x & 0xff) + 1000 * (y & 7) + 100000 * (x & 1) + 1000000 * (x & (M - 1));
    }

    static int t_mask_zero_and_all() {
        int x = -5;
        return (x & 0) + 10 * (x & -1);
    }

    static int t_unsigned_shift() {
        int x = -1;
        int y = -2147483648;
        int z = 12345;
        int a = x >>> 28;
        int b = y >>> 1;
        int c = z >>> 3;
        int d = x >>> 0;
        int e = x >>> 33;
        return a + (b == 1073741824 ? 100 : 0) + 1000 * c + (d == -1 ? 7 : 0) + (e == 2147483647 ? 20 : 0);
    }

    static int t_complement() {
        int a = ~0;
        int b = ~2147483647;
        int c = ~(-2147483648);
        int d = ~41;
        return a + 10 * (b == -2147483648 ? 1 : 0) + 100 * (c == 2147483647 ? 1 : 0) + 1000 * d;
    }

    static int t_mask_evaluates_once() {
        int[] a = new int[2];
        int i = 0;
        int v = a[i++] & 0x7fffffff;
        return v + 10 * i;
    }
}
