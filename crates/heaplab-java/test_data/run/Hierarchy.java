// Inheritance among the file's classes as Java runs it: an abstract base class with
// constructors chained by `super(…)`, inherited fields and methods, overriding with virtual
// dispatch, `super.m()`, `instanceof` (with a pattern), casts that throw
// `ClassCastException`, an interface implemented by two classes, and `equals` and
// `compareTo` overridden in a subclass.
// Each static `t_*` method is run by the JVM and by HeapLab's interpreter on the
// lowered program, and the two must agree.
public class Hierarchy {
    abstract static class Expr implements Comparable<Expr> {
        int evals;

        public boolean equals(Expr o) {
            return this == o;
        }

        public int compareTo(Expr o) {
            return eval() - o.eval();
        }

        abstract int eval();

        int size() {
            return 1;
        }

        int twice() {
            evals = evals + 1;
            return 2 * eval();
        }
    }

    static class Num extends Expr {
        int value;

        Num(int value) {
            this.value = value;
        }

        int eval() {
            return value;
        }

        public boolean equals(Expr o) {
            return o instanceof Num n && n.value == value;
        }

        public int compareTo(Expr o) {
            if (o instanceof Num) {
                return value < ((Num) o).value ? -1 : value == ((Num) o).value ? 0 : 1;
            }
            return super.compareTo(o);
        }
    }

    static class Add extends Expr {
        Expr left;
        Expr right;

        Add(Expr left, Expr right) {
            this.left = left;
            this.right = right;
        }

        int eval() {
            return left.eval() + right.eval();
        }

        int size() {
            return 1 + left.size() + right.size();
        }
    }

    static class Mul extends Add {
        Mul(Expr left, Expr right) {
            super(left, right);
        }

        int eval() {
            return left.eval() * right.eval();
        }

        int size() {
            return super.size() + 100;
        }
    }

    static class Neg extends Expr {
        Expr inner;

        Neg(Expr inner) {
            super();
            this.inner = inner;
        }

        int eval() {
            return -inner.eval();
        }
    }

    interface Shape {
        int area();
    }

    static class Square implements Shape {
        int side;

        Square(int side) {
            this.side = side;
        }

        public int area() {
            return side * side;
        }
    }

    static class Rect implements Shape {
        int w;
        int h;

        Rect(int w, int h) {
            this.w = w;
            this.h = h;
        }

        public int area() {
            return w * h;
        }
    }

    static Expr simplify(Expr e) {
        if (e instanceof Mul m) {
            if (m.left instanceof Num && ((Num) m.left).value == 1) {
                return simplify(m.right);
            }
            return new Mul(simplify(m.left), simplify(m.right));
        }
        if (e instanceof Add) {
            Add a = (Add) e;
            if (a.left instanceof Num && ((Num) a.left).value == 0) {
                return simplify(a.right);
            }
            return new Add(simplify(a.left), simplify(a.right));
        }
        return e;
    }

    static Expr sample() {
        return new Add(new Mul(new Num(3), new Num(4)), new Neg(new Num(5)));
    }

    static int t_eval() {
        return sample().eval();
    }

    static int t_size() {
        return sample().size();
    }

    static int t_inherited() {
        Expr e = new Mul(new Num(2), new Num(5));
        int r = e.twice();
        return r * 10 + e.evals;
    }

    static boolean t_instanceof() {
        Expr e = new Mul(new Num(1), new Num(2));
        return e instanceof Add && e instanceof Mul && !(e instanceof Num);
    }

    static int t_simplify() {
        Expr e = new Add(new Num(0), new Mul(new Num(1), new Num(7)));
        Expr s = simplify(e);
        return s.eval() * 1000 + s.size();
    }

    static int t_cast_fails() {
        Expr e = new Num(3);
        Add a = (Add) e;
        return a.size();
    }

    static boolean t_cast_null() {
        Expr e = null;
        Mul m = (Mul) e;
        return m == null;
    }

    static int t_null_dispatch() {
        Expr e = null;
        return e.eval();
    }

    static int t_interface() {
        Shape a = new Square(3);
        Shape b = new Rect(2, 5);
        return a.area() * 100 + b.area();
    }

    static int t_equals() {
        Expr a = new Num(4);
        Expr b = new Num(4);
        Expr c = new Add(new Num(2), new Num(2));
        Expr d = c;
        int r = 0;
        if (a.equals(b)) r += 1;
        if (!a.equals(c)) r += 10;
        if (!c.equals(new Add(new Num(2), new Num(2)))) r += 100;
        if (c.equals(d)) r += 1000;
        return r;
    }

    static int t_compare_to() {
        Expr a = new Num(7);
        Expr b = new Num(9);
        Expr c = new Mul(new Num(2), new Num(3));
        return a.compareTo(b) * 100 + b.compareTo(a) * 10 + c.compareTo(a) + a.compareTo(c) * 1000;
    }
}
