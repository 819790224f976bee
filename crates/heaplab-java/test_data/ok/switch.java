/** `switch` lowered: an `if`/`else if` chain when no group falls through, a flag otherwise. */
public class Op {
    static final int ADD = 1;
    static final int SUB = 2;

    static int apply(int op, int a, int b) {
        switch (op) {
            case ADD:
                return a + b;
            case SUB:
                return a - b;
            default:
                throw new IllegalArgumentException("unknown operator");
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
            default:
                r = -1;
        }
        return r;
    }

    static int cost(int op) {
        return switch (op) {
            case ADD, SUB -> 2;
            default -> {
                int c = 8;
                yield c;
            }
        };
    }
}
