// Expressions with effects, as Java evaluates them: each static `t_*` method is run by the JVM
// and by HeapLab's interpreter on the lowered program, and the two must agree.
public class Expressions {
    static final int LIMIT = 1 << 4;
    static final int MASK = LIMIT - 1;
    static final boolean ON = true;
    static final char START = 'a';

    int count;
    int[] cells = new int[3];
    Expressions next;

    static int t_postfix_prefix() {
        int n = 1;
        int a = n++ + ++n;          // 1 + 3
        int b = n-- - --n;          // 3 - 1
        return a * 100 + b * 10 + n;
    }

    static int t_array_index_effects() {
        int[] a = new int[5];
        int n = 0;
        a[n++] = 7;
        a[++n] = 9;
        a[n] += n++;
        return a[0] * 1000 + a[1] * 100 + a[2] * 10 + n;
    }

    static int t_chained_assignment() {
        int x, y, z;
        x = y = z = 4;
        Expressions e = new Expressions();
        e.count = x += y *= 2;
        return x * 100 + y * 10 + z + e.count * 1000;
    }

    static int t_compound_on_fields() {
        Expressions e = new Expressions();
        e.next = new Expressions();
        e.next.count = 3;
        e.next.count *= 5;
        e.next.count -= 1;
        e.next.count /= 2;
        e.next.count %= 4;
        e.next.count <<= 3;
        e.next.count >>= 1;
        e.cells[1] += 6;
        e.cells[e.cells[1] - 5] *= 7;
        return e.next.count * 100 + e.cells[1];
    }

    static int t_comma_for_and_continue() {
        int s = 0;
        for (int i = 0, j = 10; i < j; i++, j--) {
            if (i % 2 == 0) continue;
            s += i * j;
        }
        return s;
    }

    static int t_for_each_and_do_while() {
        int[] xs = {3, 1, 4, 1, 5};
        int s = 0;
        for (int x : xs) {
            if (x == 4) continue;
            s = s * 10 + x;
        }
        int k = 0;
        do {
            k++;
            if (k == 2) continue;
            s += k;
        } while (k < 4);
        return s;
    }

    static int t_short_circuit_with_effects() {
        int n = 0;
        boolean a = (n++ > 5) && (n++ > 0);
        boolean b = (n++ < 5) || (n++ > 0);
        boolean c = (n++ < 5) && (n++ > 0);
        int r = n;
        r = r * 10 + (a ? 1 : 0) + (b ? 2 : 0) + (c ? 4 : 0);
        return r;
    }

    static int t_ternary_with_effects() {
        int n = 5;
        int a = n > 3 ? n++ : n--;
        int b = n < 3 ? n++ : n--;
        return a * 100 + b * 10 + n;
    }

    static int t_wrapping_ints() {
        int max = Integer.MAX_VALUE;
        int min = Integer.MIN_VALUE;
        int a = max + 1;
        int b = min - 1;
        int c = min / -1;
        int d = -min;
        int e = 0x7fffffff * 3;
        return (a == min ? 1 : 0) + (b == max ? 2 : 0) + (c == min ? 4 : 0) + (d == min ? 8 : 0) + e % 7;
    }

    static int t_shifts_and_chars() {
        int x = -17;
        char c = 'c';
        int d = c - START;
        return (x >> 2) * 1000 + (x << 3) + (LIMIT >> 1) + MASK + d * 100000 + '\n';
    }

    static int t_math() {
        return Math.max(3, 9) * 100 + Math.min(-2, 4) * 10 + Math.abs(-7) + Math.abs(Integer.MIN_VALUE) % 10;
    }

    static int t_boolean_operators() {
        boolean t = ON, f = !ON;
        int r = 0;
        if (t & !f) r += 1;
        if (t | f) r += 2;
        if (t ^ f) r += 4;
        if (!(t ^ t)) r += 8;
        boolean g = true;
        g &= f;
        g |= t;
        g ^= t;
        return r + (g ? 100 : 0);
    }

    static int t_division_semantics() {
        return (-7 / 2) * 100 + (-7 % 2) * 10 + (7 % -3);
    }

    static int t_division_by_zero() {
        int zero = 0;
        return 1 / zero;
    }

    static int t_null_dereference() {
        Expressions e = null;
        return e.count;
    }

    static int t_index_out_of_bounds() {
        int[] a = new int[2];
        return a[2];
    }

    static int t_negative_array_size() {
        int n = -1;
        int[] a = new int[n];
        return a.length;
    }

    static boolean t_assert_fails() {
        int x = 3;
        assert x != 3 : "x is " + x;
        return true;
    }
}
