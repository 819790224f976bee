// The bitwise operators without an exact encoding in HeapLab's integers are refused by name,
// each at its own line.
public class Bitwise {
    int x;
    int y;

    //@ requires true;
    int or() {
        return x | y;
    }

    //@ requires true;
    int xor() {
        return x ^ 3;
    }

    //@ requires true;
    int otherMask() {
        return x & 6;
    }

    //@ requires true;
    int twoValues() {
        return x & y;
    }

    //@ requires true;
    int shiftByValue() {
        return x >>> y;
    }

    //@ requires true;
    int shiftLeftByValue() {
        return x << y;
    }

    //@ requires true;
    void compoundShiftByValue() {
        x >>= y;
    }
}
