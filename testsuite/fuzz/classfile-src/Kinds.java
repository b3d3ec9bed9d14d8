// Class files of every kind for the fuzz corpus of agent/cfmethods.c
// (testsuite/fuzz/local.mk): methods with and without code, natives,
// interfaces, an enum, a record, an annotation, a name outside the BMP.
import java.util.List;

interface Kinds {
    void plain(int a);
    default String named(List<String> xs) { return xs.isEmpty() ? "" : xs.get(0); }
    static Kinds make() { return a -> { }; }

    abstract class Base implements Kinds {
        protected abstract long size();
        public native int peek(byte[] b, int off);
        static native void init();
        public void plain(int a) { }
        synchronized void h\uD835\uDD18llo() { }
    }

    enum Colour { RED, GREEN; Colour next() { return values()[(ordinal() + 1) % 2]; } }

    record Point(int x, double y) {
        public Point { if (x < 0) throw new IllegalArgumentException(); }
    }

    @interface Marker { String value() default "m"; int[] more() default {}; }
}
