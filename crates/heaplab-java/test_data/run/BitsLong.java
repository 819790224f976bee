// The bitwise operators of `Bits.java` in a file with `long` (`ints java64`): `int` values
// keep their 32 bits, `long` ones their 64. Run by the JVM and by HeapLab's interpreter.
public class BitsLong {
    static int hashOf(int h, int m) {
        return (h & 0x7fffffff) % m;
    }

    static int t_int_sign_mask() {
        return hashOf(-1, 8) + 10 * hashOf(-2147483648, 8) + 100 * hashOf(2147483647, 5) + 1000 * hashOf(-13, 7);
    }

    static int t_long_masks() {
        long x = -4294967297L;
        long a = x & 0x7fffffff;
        long b = x & 0xff;
        long c = x & -1;
        return (a == 2147483647L ? 1 : 0) + (b == 255L ? 10 : 0) + (c == x ? 100 : 0);
    }

    static int t_unsigned_shifts() {
        int i = -1;
        long l = -1L;
        long big = -9223372036854775807L;
        int a = i >>> 1;
        long b = l >>> 1;
        long c = l >>> 40;
        long d = big >>> 62;
        return (a == 2147483647 ? 1 : 0) + (b == 9223372036854775807L ? 10 : 0) + (c == 16777215L ? 100 : 0) + (d == 2L ? 1000 : 0);
    }

    static int t_complements() {
        int i = 2147483647;
        long l = 5L;
        long m = -9223372036854775807L;
        int a = ~i;
        long b = ~l;
        long c = ~m;
        return (a == -2147483648 ? 1 : 0) + (b == -6L ? 10 : 0) + (c == 9223372036854775806L ? 100 : 0);
    }
}
