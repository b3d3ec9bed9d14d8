// Corpus source for fuzz_classfile: every kind of parameter and return
// value, long/double arithmetic, arrays, wide locals, iinc; natives for
// the wrapper (agent/cfwrap.h), every kind of parameter, past slot 3.
public class Numbers {
    static native long natMix(boolean z, byte b, char c, short s, int i, long j, float f, double d,
                              Object o, int[] a);
    synchronized native String natSelf(long x, String s) throws java.io.IOException;
    static native void natVoid();

    static long mix(boolean z, byte b, char c, short s, int i, long j, float f, double d,
                    Object o, int[] a) {
        long r = j;
        if (z) r += b + c + s + i;
        r ^= Float.floatToIntBits(f);
        r += Double.doubleToLongBits(d);
        r += o == null ? 0 : o.hashCode();
        return a == null ? r : r + a.length;
    }

    float f(float x) { return x * 2.5f; }
    double d(double x) { return Math.sqrt(x) - x / 3; }
    int[][] grid(int n) { return new int[n][n + 1]; }
    char ch(String s) { return s.isEmpty() ? '?' : s.charAt(0); }

    static long many(long a0, long a1, long a2, long a3, long a4, long a5, long a6, long a7) {
        long l0 = a0 + a1, l1 = a2 + a3, l2 = a4 + a5, l3 = a6 + a7;
        int i = 0;
        for (int k = 0; k < 300; k += 7) i += k;
        return l0 * l1 * l2 * l3 + i;
    }

    static double loops(double[] xs) {
        double best = Double.NEGATIVE_INFINITY;
        outer:
        for (int i = 0; i < xs.length; i++) {
            for (int k = i + 1; k < xs.length; k++) {
                if (xs[k] == xs[i]) continue outer;
                if (xs[k] > 1e300) break outer;
            }
            best = Math.max(best, xs[i]);
        }
        return best;
    }
}
