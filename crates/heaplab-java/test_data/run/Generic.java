// Generics erased (an unbounded parameter to Object) and the generic array idiom; see
// Expressions.java for how these files are used.
public class Generic<Key, Value> {
    private Key[] keys = (Key[]) new Object[4];
    private Value[] vals = (Value[]) new Object[4];
    private int n;

    void put(Key k, Value v) {
        for (int i = 0; i < n; i++) {
            if (k.equals(keys[i])) {
                vals[i] = v;
                return;
            }
        }
        keys[n] = k;
        vals[n] = v;
        n++;
    }

    Value get(Key k) {
        for (int i = 0; i < n; i++)
            if (k.equals(keys[i])) return vals[i];
        return null;
    }

    static int t_generic_table() {
        Generic<Object, Object> g = new Generic<Object, Object>();
        Object a = new Object();
        Object b = new Object();
        Object x = new Object();
        g.put(a, x);
        g.put(b, x);
        g.put(a, b);
        return (g.get(a) == b ? 1 : 0) + (g.get(b) == x ? 10 : 0) + (g.get(new Object()) == null ? 100 : 0) + g.n * 1000;
    }
}
