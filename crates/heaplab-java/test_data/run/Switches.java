// `switch` as Java runs it: statements with fall-through, `default` anywhere, `break` from
// inside an `if`, `continue` and `break` of an enclosing loop, and switch expressions with
// arrows and `yield`. Each static `t_*` method is run by the JVM and by HeapLab's interpreter
// on the lowered program, and the two must agree.
public class Switches {
    static final int ADD = 1;
    static final int SUB = 2;
    static final int MUL = 3;

    int op;
    Switches next;

    static int classify(int n) {
        switch (n) {
            case 0:
                return 10;
            case 1:
            case 2:
                return 20;
            default:
                return 30;
        }
    }

    static int fallThrough(int n) {
        int r = 0;
        switch (n) {
            case 1:
                r += 1;
            case 2:
                r += 10;
                break;
            case 3:
                r += 100;
            default:
                r += 1000;
            case 4:
                r += 10000;
        }
        return r;
    }

    static int defaultFirst(int n) {
        int r = 0;
        switch (n) {
            default:
                r = 7;
                break;
            case 5:
                r = 5;
        }
        return r;
    }

    static int breakInsideIf(int n, boolean early) {
        int r = 1;
        switch (n) {
            case 1:
                if (early) {
                    break;
                }
                r = 2;
                break;
            case 2:
                r = 3;
                break;
        }
        return r;
    }

    static int apply(int op, int a, int b) {
        switch (op) {
            case ADD:
                return a + b;
            case SUB:
                return a - b;
            case MUL:
                return a * b;
            default:
                throw new IllegalArgumentException("unknown operator");
        }
    }

    static int letter(char c) {
        switch (c) {
            case 'a':
            case 'e':
            case 'i':
            case 'o':
            case 'u':
                return 1;
            default:
                return 0;
        }
    }

    static int arrows(int n) {
        int r = 0;
        switch (n) {
            case 1, 2 -> r = 12;
            case 3 -> {
                r = 3;
                if (n > 0) {
                    break;
                }
                r = -1;
            }
            default -> r = 99;
        }
        return r;
    }

    static int expression(int n) {
        return switch (n) {
            case 0 -> 100;
            case 1, 2 -> n * 7;
            default -> {
                int k = n + 1;
                yield k * k;
            }
        };
    }

    static int oldStyleExpression(int n) {
        int v = switch (n) {
            case 1:
                yield 11;
            case 2:
            default:
                yield 22;
        };
        return v;
    }

    static int t_classify() {
        return classify(0) * 10000 + classify(2) * 100 + classify(-5);
    }

    static int t_fall_through() {
        return fallThrough(1) + fallThrough(2) * 3 + fallThrough(3) * 7 + fallThrough(4) * 11
            + fallThrough(9) * 13;
    }

    static int t_default_first() {
        return defaultFirst(5) * 10 + defaultFirst(6);
    }

    static int t_break_inside_if() {
        return breakInsideIf(1, true) * 100 + breakInsideIf(1, false) * 10 + breakInsideIf(2, true);
    }

    static int t_constants_as_labels() {
        return apply(ADD, 7, 5) * 10000 + apply(SUB, 7, 5) * 100 + apply(MUL, 7, 5);
    }

    static int t_unknown_operator_throws() {
        return apply(9, 1, 1);
    }

    static int t_char_selector() {
        int vowels = 0;
        char[] word = {'h', 'e', 'a', 'p', 'l', 'a', 'b', 'u'};
        for (char c : word) {
            vowels += letter(c);
        }
        return vowels;
    }

    static int t_continue_and_break_in_a_loop() {
        int sum = 0;
        for (int i = 0; i < 20; i++) {
            switch (i % 4) {
                case 0:
                    continue;
                case 1:
                    sum += i;
                    break;
                case 2:
                    if (i > 12) {
                        continue;
                    }
                    sum += 100;
                    break;
                default:
                    if (i > 16) {
                        break;
                    }
                    sum += 1000;
            }
            sum += 1;
        }
        return sum;
    }

    static int t_break_of_an_inner_loop() {
        int r = 0;
        switch (3) {
            case 3:
                for (int i = 0; i < 10; i++) {
                    if (i == 4) {
                        break;
                    }
                    r += i;
                }
                r *= 10;
            case 4:
                r += 1;
        }
        return r;
    }

    static int t_nested_switches() {
        int r = 0;
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                switch (i) {
                    case 0:
                        switch (j) {
                            case 1:
                                r += 1;
                                break;
                            default:
                                r += 10;
                        }
                        break;
                    case 1:
                        r += 100;
                    default:
                        r += 1000;
                }
            }
        }
        return r;
    }

    static int t_arrows() {
        return arrows(1) * 10000 + arrows(3) * 100 + arrows(7);
    }

    static int t_switch_expression() {
        return expression(0) * 10000 + expression(2) * 100 + expression(4);
    }

    static int t_old_style_switch_expression() {
        return oldStyleExpression(1) * 100 + oldStyleExpression(5);
    }

    static int t_selector_runs_once() {
        int n = 0;
        int r = 0;
        switch (n++) {
            case 0:
                r = 5;
                break;
            case 1:
                r = 6;
                break;
        }
        return r * 10 + n;
    }

    static int t_switch_on_a_field() {
        Switches s = new Switches();
        s.next = new Switches();
        s.next.op = MUL;
        return apply(s.next.op, 6, 7);
    }

    static int t_switch_on_null_field_throws() {
        Switches s = new Switches();
        return apply(s.next.op, 6, 7);
    }

    static int t_switch_expression_in_a_condition() {
        int count = 0;
        for (int i = 0; i < 6; i++) {
            if (switch (i % 3) { case 0 -> true; default -> false; }) {
                count++;
            }
        }
        return count;
    }
}
