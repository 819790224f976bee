// A small hierarchy: an abstract class, two concrete subclasses (one overriding a method of
// the base, one inheriting it), `super(…)`, `super.m()`, `instanceof` and a cast. The lowered
// program shows the design: one class `Shape` with the union of the fields and the tag
// `__class`, a dispatcher `area` branching on the tag, `assume` in bodies only some classes
// reach, and `assume` where a field or parameter typed with a subclass is read.
abstract class Shape {
    int x;

    Shape(int x) {
        this.x = x;
    }

    abstract int area();

    int describe() {
        return x;
    }
}

class Square extends Shape {
    int side;

    Square(int x, int side) {
        super(x);
        this.side = side;
    }

    int area() {
        return side * side;
    }

    int describe() {
        return super.describe() + area();
    }
}

class Circle extends Shape {
    int r;
    Square inscribed;

    Circle(int x, int r) {
        super(x);
        this.r = r;
    }

    int area() {
        return 3 * r * r;
    }

    static int sideOf(Shape s) {
        if (s instanceof Square) {
            return ((Square) s).side;
        }
        return -1;
    }

    int inscribedSide() {
        return inscribed.side;
    }

    static int sides(Square a, Square b) {
        return a.side + b.side;
    }
}
