// Corpus source for fuzz_classfile: try/catch/finally, multi-catch,
// try-with-resources, synchronized, rethrow.
import java.io.Closeable;
import java.io.IOException;

public class TryCatch {
    private final Object lock = new Object();
    private int count;

    int plain(int[] a, int i) {
        try {
            return a[i];
        } catch (ArrayIndexOutOfBoundsException e) {
            return -1;
        } finally {
            count++;
        }
    }

    String multi(Object o) throws IOException {
        try {
            if (o == null) throw new IOException("null");
            return o.toString();
        } catch (IllegalStateException | UnsupportedOperationException e) {
            return e.getMessage();
        }
    }

    void resources(Closeable c, Closeable d) throws IOException {
        try (Closeable x = c; Closeable y = d) {
            count += x.hashCode() + y.hashCode();
        }
    }

    void locked() {
        synchronized (lock) {
            count++;
            if (count > 100) throw new IllegalStateException();
        }
    }

    static void nested(Runnable r) {
        try {
            try {
                r.run();
            } finally {
                System.gc();
            }
        } catch (RuntimeException e) {
            throw new Error(e);
        }
    }
}
