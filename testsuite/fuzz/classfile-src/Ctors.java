// Corpus source for fuzz_classfile: constructors with this(), a branch and
// a `new` before super(), field initializers, an inner class (its outer
// instance stored before super()), an anonymous class.
public class Ctors extends Base {
    private final long id = System.nanoTime();
    private String name;

    Ctors(int x) {
        super(x > 0 ? x : -x, new StringBuilder("n").append(x).toString());
        name = "x" + x;
    }

    Ctors() {
        this(42);
    }

    Ctors(String s) {
        super(s.length(), s);
        if (s.isEmpty()) throw new IllegalArgumentException();
        name = s;
    }

    class Inner {
        final int v;
        Inner(int v) { this.v = v + (int) id; }
    }

    Runnable anon() {
        return new Runnable() {
            public void run() { name = name + "!"; }
        };
    }
}

class Base {
    Base(int a, String b) {
        if (a < 0 || b == null) throw new IllegalArgumentException(b);
    }
}
