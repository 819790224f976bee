package course;

/**
 * An arithmetic expression tree, as data-structures courses build it after binary trees: a
 * leaf holds a value, an inner node an operator and two operands. Evaluation switches on the
 * operator; the cost of evaluating a tree is a switch expression over its nodes.
 */
public class ExpressionTree {
    public static final char LEAF = ' ';
    public static final char PLUS = '+';
    public static final char MINUS = '-';
    public static final char TIMES = '*';
    public static final char DIVIDE = '/';

    private Node root;

    private static class Node {
        private char op;
        private int value;
        private Node left, right;

        Node(int value) {
            this.op = LEAF;
            this.value = value;
        }

        Node(char op, Node left, Node right) {
            this.op = op;
            this.left = left;
            this.right = right;
        }
    }

    /*@ pred expr(Node x) :=
            exists int v. x -> Node { op: LEAF, value: v, left: null, right: null }
          | exists int o, int v, Node l, Node r.
              x -> Node { op: o, value: v, left: l, right: r } * expr(l) * expr(r)
              & (o == PLUS || o == MINUS || o == TIMES || o == DIVIDE);
      @*/

    public ExpressionTree(int value) {
        root = new Node(value);
    }

    /** Combines this tree with another under an operator: `this op other`. */
    //@ requires expr(this.root) * expr(other.root);
    public void combine(char op, ExpressionTree other) {
        switch (op) {
            case PLUS:
            case MINUS:
            case TIMES:
            case DIVIDE:
                root = new Node(op, root, other.root);
                break;
            default:
                throw new IllegalArgumentException("not an operator");
        }
    }

    /** The value of the expression; division by zero throws. */
    //@ requires expr(this.root);
    public int eval() {
        return eval(root);
    }

    private static int eval(Node x) {
        if (x.op == LEAF) return x.value;
        int a = eval(x.left);
        int b = eval(x.right);
        switch (x.op) {
            case PLUS:
                return a + b;
            case MINUS:
                return a - b;
            case TIMES:
                return a * b;
            case DIVIDE:
                if (b == 0) throw new ArithmeticException("division by zero");
                return a / b;
            default:
                throw new IllegalStateException("unknown operator");
        }
    }

    /** What evaluating the tree costs: a leaf 1, an addition 2, a product 4, a quotient 8. */
    //@ requires expr(this.root);
    //@ ensures \result >= 1;
    public int cost() {
        return cost(root);
    }

    private static int cost(Node x) {
        int own = switch (x.op) {
            case LEAF -> 1;
            case PLUS, MINUS -> 2;
            case TIMES -> 4;
            default -> {
                int c = 8;
                yield c;
            }
        };
        if (x.op == LEAF) return own;
        return own + cost(x.left) + cost(x.right);
    }
}
