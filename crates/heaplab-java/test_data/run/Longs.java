// `long` mixed with `int`: the file runs under `ints java64` and every `int` result is wrapped
// to 32 bits. Each static `t_*` method is run by the JVM and by HeapLab's interpreter.
public class Longs {
    static final int BIG = 2147483647;

    long total;
    int count;
    int[] items = new int[4];

    void add(int x) {
        total += x;
        count++;
    }

    static int t_int_overflow_wraps() {
        int a = BIG;
        return a + 1 < 0 ? 1 : 0;
    }

    static int t_long_does_not_overflow() {
        long a = BIG;
        return a + 1 > 0 ? 1 : 0;
    }

    static int t_promotion_to_long() {
        int a = BIG;
        long b = a + 1L;        // promoted before the add
        long c = a + 1;         // int add, then widened
        return (b > 0 ? 10 : 0) + (c < 0 ? 1 : 0);
    }

    static int t_sum_into_long() {
        Longs s = new Longs();
        s.add(BIG);
        s.add(BIG);
        s.add(3);
        return (int) (s.total - 4294967294L) + s.count * 100;
    }

    static int t_narrowing_cast() {
        long x = 4294967298L;   // 2^32 + 2
        long y = -4294967297L;  // -(2^32) - 1
        return (int) x * 10 + (int) y;
    }

    static int t_long_multiply_then_narrow() {
        int a = 65536;
        long p = (long) a * a;  // 2^32
        int q = a * a;          // wraps to 0
        return (int) (p >> 32) * 10 + q;
    }

    static int t_compound_and_increment_wrap() {
        int i = BIG;
        i++;
        int j = BIG;
        j += 1L;                // narrowed back to int
        long k = BIG;
        k++;
        int m = BIG;
        m *= 2;
        return (i < 0 ? 1000 : 0) + (j < 0 ? 100 : 0) + (k > 0 ? 10 : 0) + m;
    }

    static int t_array_of_int_with_long_sum() {
        Longs s = new Longs();
        s.items[0] = BIG;
        s.items[1] = BIG;
        long sum = 0;
        for (int v : s.items) {
            sum += v;
        }
        int isum = 0;
        for (int v : s.items) {
            isum += v;
        }
        return (sum > 0 ? 10 : 0) + (isum < 0 ? 1 : 0);
    }

    static int t_negation_and_shifts() {
        int min = -2147483648;
        int n = -min;           // still MIN_VALUE
        long l = -(long) min;   // 2^31
        int s = 1 << 31;
        long t = 1L << 40;
        return (n == min ? 1000 : 0) + (l > 0 ? 100 : 0) + (s < 0 ? 10 : 0) + (int) (t >> 38);
    }

    static boolean t_mixed_comparison() {
        int a = -1;
        long b = 4294967295L;
        return a < b && (long) a != b;
    }

    void setCount(int c) {
        count = c;
        this.count = count + c;
    }

    static int t_int_field_assignments() {
        Longs s = new Longs();
        s.count = BIG;
        s.count = s.count + 1;
        int before = s.count;
        s.setCount(3);
        s.items[2] = s.count;
        s.items[2] += BIG;
        return (before < 0 ? 1000 : 0) + s.count * 10 + (s.items[2] < 0 ? 1 : 0);
    }
}
