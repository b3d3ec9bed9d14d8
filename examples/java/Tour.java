// Tour: one run that makes every kind of Java event stapjava probes, in a
// fixed order, for examples/tour.stp and testsuite/vm/java_probes.bats.
//
//   java -agentpath:libstapjava.so=wait_ms=8000 -cp CLASSES Tour
//
// Each thread first prints its OS thread id ("tid NAME=N"), so that a test
// can check java_tid against it.
import java.nio.file.Files;
import java.nio.file.Paths;

public class Tour {
    static final Object lock = new Object();
    static final Object sleeper = new Object();
    static volatile boolean ready, go;

    static String osTid() {
        try {
            String link = Files.readSymbolicLink(Paths.get("/proc/thread-self")).toString();
            return link.substring(link.lastIndexOf('/') + 1);
        } catch (Exception e) {
            return "?";
        }
    }

    static synchronized void printTid(String name) {
        System.out.println("tid " + name + "=" + osTid());
    }

    // Methods with arguments and return values of several types.
    static int add(int a, int b) { return a + b; }
    static long scale(long x, double f) { return (long) (x * f); }
    static String greet(String who, char mark) { return "hello, " + who + mark; }
    static boolean check(boolean z, byte b, short s, float f) { return !z; }
    static double half(double d) { return d / 2; }
    static int[] digits(int n) { return new int[] {n / 10, n % 10}; }
    static Object nothing(Object o) { return null; }
    static void fail(String why) { throw new IllegalStateException(why); }

    static void methods() {
        add(2, 3);
        scale(1L << 40, 0.5);
        greet("stapjava", '!');
        check(false, (byte) -1, (short) 300, 1.5f);
        half(-0.5);
        digits(42);
        nothing(null);
        try {
            fail("on purpose");
        } catch (IllegalStateException e) {
            System.out.println("caught: " + e.getMessage());
        }
    }

    static void classes() {
        System.out.println("lazy: " + TourLazy.value());
    }

    static void threads() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Thread t = new Thread(() -> printTid(Thread.currentThread().getName()), "worker-" + i);
            t.start();
            while (t.isAlive()) Thread.sleep(1); // not join(): no monitor events
        }
    }

    static void monitors() throws Exception {
        // Contended enter: main holds `lock` until the blocker is blocked on it. The
        // blocker prints first, so `lock` is the only monitor it can contend on.
        Thread b = new Thread(() -> {
            printTid("blocker");
            ready = true;
            while (!go)
                Thread.onSpinWait();
            synchronized (lock) { }
        }, "blocker");
        b.start();
        while (!ready)
            Thread.sleep(1);
        synchronized (lock) {
            go = true;
            while (b.getState() != Thread.State.BLOCKED)
                Thread.sleep(1);
        }
        while (b.isAlive()) Thread.sleep(1);
        // A wait that times out.
        synchronized (sleeper) {
            sleeper.wait(20);
        }
    }

    public static void main(String[] args) throws Exception {
        System.out.println("pid " + ProcessHandle.current().pid());
        printTid("main");
        methods();
        classes();
        threads();
        System.gc();
        monitors();
        System.out.println("done");
    }
}

// Loaded (and prepared) only when Tour.classes() first uses it.
class TourLazy {
    static int value() { return 7; }
}
