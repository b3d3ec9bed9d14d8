// Families: one scenario per event family, for testsuite/agent.bats.
//
//   java Families SCENARIO GOFILE [ARG]
//
// Every scenario first waits (bounded) for GOFILE, so the test can attach a
// client and register before anything happens, then prints the OS thread ids
// of the threads involved ("tid NAME=N") for the test to compare with events.
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

public class Families {
    static void waitFor(String file) throws Exception {
        Path p = Paths.get(file);
        for (int i = 0; i < 6000; i++) {
            if (Files.exists(p))
                return;
            Thread.sleep(5);
        }
        System.err.println("Families: " + file + " never appeared");
        System.exit(99);
    }

    static String osTid() {
        try {
            String link = Files.readSymbolicLink(Paths.get("/proc/thread-self")).toString();
            return link.substring(link.lastIndexOf('/') + 1);
        } catch (Exception e) {
            return "?";
        }
    }

    static void printTid(String name) {
        System.out.println("tid " + name + "=" + osTid());
    }

    public static void main(String[] args) throws Exception {
        String scenario = args[0];
        if (scenario.equals("lambdas")) {
            Lambdas.prepare();
            System.out.println("prepared");
        }
        if (scenario.equals("latelink")) {
            // loaded (its bytes read) now, linked and prepared only once called
            Families.class.getClassLoader().loadClass("LateLink");
            System.out.println("loaded");
        }
        if (scenario.equals("natives")) {
            Class.forName("NativesEarly");
            System.out.println("loaded");
        }
        if (scenario.equals("unicode-loaded")) {
            // loaded, linked and initialised before the registration
            Class.forName("Unicode");
            System.out.println("loaded");
        }
        if (!scenario.equals("exitrace"))
            waitFor(args[1]);
        switch (scenario) {
        case "methods": Demo.run(); break;
        case "exceptions": Exceptions.run(); break;
        case "threads": Threads.run(); break;
        case "lingering": Lingering.run(args[2]); break;
        case "monitors": Monitors.run(); break;
        case "owner": Owner.run(args[2]); break;
        case "gc": printTid("main"); System.gc(); break;
        case "classes": Classes.run(args.length > 2 ? args[2] : null); break;
        case "jit": Hot.run(); break;
        case "stamps": Stamps.run(); break;
        case "flood": Flood.run(Integer.parseInt(args[2]), args[3], args.length > 4 ? args[4] : null); break;
        case "filters": printTid("main"); sj.filt.Named.run(); break;
        case "churn": Churn.run(Integer.parseInt(args[2]), args[3]); break;
        case "exitrace": ExitRace.run(args[1]); break;
        case "manythreads": ManyThreads.run(Integer.parseInt(args[2])); break;
        case "idle": waitFor(args[2]); break;
        case "hello": System.out.println("hello from Families"); break;
        case "entry": Entry.run(); break;
        case "lambdas": Lambdas.run(); break;
        case "latelink": System.out.println("step " + LateLink.step(20)); break;
        case "vthreads": VThreads.run(); break;
        case "unwind": Unwind.run(); break;
        case "overflow": Overflow.run(); break;
        case "natives": Natives.run(args[2], args[3]); break;
        case "natives-gone": NativesGoneRounds.run(args[2]); break;
        case "escape": Escape.run(); break;
        case "paced": Paced.run(args[2]); break;
        case "rounds": Rounds.run(args[2]); break;
        case "throwing": Throwing.run(Integer.parseInt(args[2]), args[3]); break;
        case "unicode": case "unicode-loaded": Unicode.run(); break;
        default: throw new IllegalArgumentException(scenario);
        }
    }
}

class Demo {
    int field = 7;

    static int add(int a, int b) { return a + b; }
    static void prims(boolean z, byte b, char c, short s, int i, long j, float f, double d) {}
    static void chars(char a, char b, char c) {}
    static void floats(float a, double b, double c, double d) {}
    long inst(long x, double y, int z) { return x + z + field; }
    static String refs(String s, Object o, Object n, int[] a, String[] sa, int[][] m) { return s + "!"; }
    static boolean retZ() { return true; }
    static byte retB() { return -5; }
    static char retC() { return 'q'; }
    static short retS() { return -300; }
    static long retJ() { return 1L << 40; }
    static float retF() { return 1.5f; }
    static double retD() { return -0.25; }
    static Object retNull() { return null; }
    static int[] retArr() { return new int[] {1, 2, 3}; }
    static Object retObj() { return new java.util.ArrayList<String>(); }
    static void fail() { throw new IllegalStateException("boom"); }

    static void run() {
        Families.printTid("main");
        add(2, 3);
        prims(true, (byte) -1, 'x', (short) 300, -7, 1234567890123L, 0.1f, 2.5);
        chars('\'', '\\', '\u00e9');
        floats(Float.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e-300);
        new Demo().inst(40L, 1.25, 2);
        refs("h\u00e9llo \u20ac\ud83d\ude00 \"q\"\n", new java.util.ArrayList<String>(), null,
             new int[3], new String[] {"a", "b"}, new int[2][]);
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 300; i++)
            big.append((char) ('a' + i % 26));
        refs(big.toString(), null, null, null, null, null);
        retZ(); retB(); retC(); retS(); retJ(); retF(); retD(); retNull(); retArr(); retObj();
        try { fail(); } catch (IllegalStateException e) { }
    }
}

class Exceptions {
    static void thrower() { throw new IllegalArgumentException("bad"); }
    static void catcher() {
        try { thrower(); } catch (IllegalArgumentException e) { }
    }
    static void run() {
        Families.printTid("main");
        catcher();
    }
}

class Threads {
    static void run() throws Exception {
        Families.printTid("main");
        for (int i = 1; i <= 2; i++) {
            Thread t = new Thread(() -> Families.printTid(Thread.currentThread().getName()), "worker-" + i);
            t.start();
            t.join();
        }
    }
}

/* A thread whose events the bridge handles while it lives, then ends once
 * told (the container test of thread ids): main calls mark(), starts
 * "lingerer", which calls tick() and waits for END, and calls mark() again
 * once tick() is done, so a bridge that fired the second mark() has handled
 * tick() before (events in time order). */
class Lingering {
    static volatile boolean ticked;

    static void tick() {}
    static void mark() {}

    static void run(String end) throws Exception {
        Families.printTid("main");
        mark();
        Thread t = new Thread(() -> {
            Families.printTid("lingerer");
            tick();
            ticked = true;
            try {
                Families.waitFor(end);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "lingerer");
        t.start();
        while (!ticked)
            Thread.sleep(1);
        mark();
        t.join();
    }
}

class Monitors {
    static final Object lock = new Object();
    static final Object waitObj = new Object();
    static volatile boolean ready, go;

    static void run() throws Exception {
        Families.printTid("main");
        // contended enter: main holds the lock until the other thread is blocked on it.
        // The blocker does its printing (class loading, stream locks) first, so the
        // only monitor it can contend on afterwards is `lock`.
        Thread b = new Thread(() -> {
            Families.printTid("blocker");
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
        b.join();
        // a wait that times out
        synchronized (waitObj) { waitObj.wait(50); }
        // a wait that is notified
        Thread w = new Thread(() -> {
            Families.printTid("waiter");
            synchronized (waitObj) {
                try { waitObj.wait(); } catch (InterruptedException e) { }
            }
        }, "waiter");
        w.start();
        while (w.getState() != Thread.State.WAITING)
            Thread.sleep(1);
        synchronized (waitObj) { waitObj.notifyAll(); }
        w.join();
    }
}

// Who holds a lock: the holder keeps Shelf's lock until RELEASE exists, which
// the test creates once the bridge has printed main's contended enter (so the
// agent read the owner while it held the lock: no race with the release).
class Owner {
    static final class Shelf { }
    static final Shelf shelf = new Shelf();
    static volatile boolean held;

    static void run(String release) throws Exception {
        Families.printTid("main");
        Thread holder = new Thread(() -> {
            Families.printTid("holder");
            synchronized (shelf) {
                held = true;
                try { Families.waitFor(release); } catch (Exception e) { throw new RuntimeException(e); }
            }
        }, "holder");
        holder.start();
        while (!held)
            Thread.sleep(1);
        synchronized (shelf) { }
        holder.join();
    }
}

class Loaded {
    static int value = 42;
}

class Classes {
    static void run(String classesDir) throws Exception {
        Families.printTid("main");
        Class.forName("Loaded");
        if (classesDir == null)
            return;
        URLClassLoader loader = new URLClassLoader(new URL[] {Paths.get(classesDir).toUri().toURL()}, null);
        Class<?> c = loader.loadClass("Unloadable");
        c.getMethod("get").invoke(null);
        c = null;
        loader.close();
        loader = null;
        for (int i = 0; i < 5; i++)
            System.gc();
    }
}

// Two rounds: NativesGone defined by a throw-away loader, its alive()
// called, the loader dropped and collected (at most 50 collections, said).
class NativesGoneRounds {
    static void run(String classesDir) throws Exception {
        for (int round = 1; round <= 2; round++) {
            URLClassLoader loader = new URLClassLoader(new URL[] {Paths.get(classesDir).toUri().toURL()}, null);
            Class<?> c = Class.forName("NativesGone", true, loader);
            c.getMethod("alive").invoke(null);
            java.lang.ref.WeakReference<ClassLoader> ref = new java.lang.ref.WeakReference<>(loader);
            c = null;
            loader.close();
            loader = null;
            int gcs = 0;
            while (ref.get() != null && gcs < 50) {
                System.gc();
                gcs++;
            }
            System.out.println("round " + round + (ref.get() == null ? " collected" : " kept"));
        }
    }
}

class Hot {
    static int work(int x) { return x * 31 + 7; }
    static void run() {
        Families.printTid("main");
        int acc = 0;
        for (int i = 0; i < 200000; i++)
            acc += work(i);
        System.out.println("acc " + acc);
    }
}

// Stamps: System.nanoTime() is CLOCK_MONOTONIC on Linux; 100 calls of
// tick() happen well inside the two readings printed around them.
class Stamps {
    static void tick(int i) {}
    static void run() throws Exception {
        long before = System.nanoTime();
        Thread.sleep(20);
        for (int i = 0; i < 100; i++)
            tick(i);
        Thread.sleep(20);
        System.out.println("nanotime " + before + " " + System.nanoTime());
    }
}

class Flood {
    static void tick(int i) {}
    static void run(int n, String doneFile, String releaseFile) throws Exception {
        for (int i = 0; i < n; i++)
            tick(i);
        System.out.println("generated " + n);
        Files.createFile(Paths.get(doneFile));
        // the test may hold the JVM until it has read every event (and the loss count)
        if (releaseFile != null)
            Families.waitFor(releaseFile);
    }
}

// Churn: threads call busy() and throw until STOPFILE exists, while bridges
// come and go; each thread checks its own arithmetic, so an agent that
// corrupted a frame or a return value shows up in the output.
// Exceptions through probed frames: depth3 throws, depth2 lets it pass
// (finally), depth1 catches it; a thread dies of an exception in a probed
// method.
// Recursion until the stack overflows, on a thread with a small stack (a
// bounded number of frames), the error caught at the bottom; then one call
// that returns.
class Overflow {
    static int deep(int n) { return n < 0 ? 0 : deep(n + 1) + 1; }
    static void run() throws Exception {
        Thread t = new Thread(null, () -> {
            try { deep(0); } catch (StackOverflowError e) { System.out.println("overflowed"); }
        }, "overflow", 256 * 1024);
        t.start();
        t.join();
        System.out.println("after " + deep(-1));
    }
}

class Unwind {
    static int sink;
    final int v;
    Unwind(int v) { this.v = v; }
    // throws before this() when S is null: the constructor's frame is popped
    Unwind(String s) { this(check(s)); }
    static int check(String s) { if (s == null) throw new IllegalStateException("null"); return s.length(); }
    static int depth3(int n) { if (n > 0) throw new IllegalStateException("deep " + n); return n; }
    static int depth2(int n) { try { return depth3(n) + 1; } finally { sink++; } }
    static int depth1(int n) { try { return depth2(n) + 1; } catch (IllegalStateException e) { return -1; } }
    static void dies() { throw new IllegalArgumentException("the thread dies"); }
    static void run() throws Exception {
        Families.printTid("main");
        System.out.println(depth1(0) + " " + depth1(1));
        System.out.println(new Unwind("ab").v);
        try { new Unwind((String) null); } catch (IllegalStateException e) { System.out.println("ctor " + e.getMessage()); }
        Thread t = new Thread(() -> { Families.printTid("dying"); dies(); }, "dying");
        t.setUncaughtExceptionHandler((th, x) -> System.out.println("uncaught " + x.getMessage()));
        t.start();
        t.join();
    }
}

// busy(0), busy(1), ... about 10 000 calls a second until STOPFILE exists:
// a rate any bridge keeps up with, for counting every call exactly.
class Paced {
    static int busy(int i) { return 2 * i; }
    static void run(String stopFile) throws Exception {
        Path stop = Paths.get(stopFile);
        long sum = 0;
        int n = 0;
        while (!Files.exists(stop)) {
            for (int j = 0; j < 10; j++, n++)
                sum += busy(n);
            Thread.sleep(1);
        }
        System.out.println(sum == (long) n * (n - 1) ? "paced ok" : "paced WRONG");
    }
}

// NTHREADS threads call level1 -> level2 -> level3 in a loop; every 7th call
// throws from level3 through the other two, caught in the loop. Until
// STOPFILE exists; then each thread checks its sums and prints "throwing-N ok".
class Throwing {
    static int level3(int i) { if (i % 7 == 0) throw new IllegalStateException("x"); return i; }
    static int level2(int i) { return level3(i) + 1; }
    static int level1(int i) { try { return level2(i) + 1; } finally { } }
    static void run(int nthreads, String stopFile) throws Exception {
        Path stop = Paths.get(stopFile);
        Thread[] ts = new Thread[nthreads];
        boolean[] ok = new boolean[nthreads];
        for (int t = 0; t < nthreads; t++) {
            final int k = t;
            ts[t] = new Thread(() -> {
                long sum = 0, want = 0, caught = 0, calls = 0;
                while (!Files.exists(stop)) {
                    for (int j = 0; j < 1000; j++, calls++) {
                        int i = (int) calls;
                        try { sum += level1(i); want += i + 2; } catch (IllegalStateException e) { caught++; }
                    }
                }
                ok[k] = sum == want && caught == (calls + 6) / 7;
            }, "throwing-" + t);
            ts[t].start();
        }
        for (Thread t : ts)
            t.join();
        for (int t = 0; t < nthreads; t++)
            System.out.println("throwing-" + t + (ok[t] ? " ok" : " WRONG"));
    }
}

class Churn {
    static int busy(int i) { return 2 * i; }
    static void run(int nthreads, String stopFile) throws Exception {
        Path stop = Paths.get(stopFile);
        Thread[] ts = new Thread[nthreads];
        boolean[] ok = new boolean[nthreads];
        for (int t = 0; t < nthreads; t++) {
            final int k = t;
            ts[t] = new Thread(() -> {
                long sum = 0, n = 0, caught = 0;
                while (!Files.exists(stop)) {
                    for (int j = 0; j < 100; j++, n++)
                        sum += busy((int) n);
                    try { throw new IllegalStateException("churn"); } catch (IllegalStateException e) { caught++; }
                }
                ok[k] = sum == n * (n - 1) && caught == n / 100;
            }, "churn-" + t);
            ts[t].start();
        }
        for (Thread t : ts)
            t.join();
        for (int t = 0; t < nthreads; t++)
            System.out.println("churn-" + t + (ok[t] ? " ok" : " WRONG"));
        System.exit(3);
    }
}

class ExitRace {
    static volatile long sink;
    static void busy(int i) { sink += i; }
    static void run(String goFile) throws Exception {
        for (int t = 0; t < 8; t++) {
            Thread th = new Thread(() -> {
                for (int i = 0; ; i++) {
                    busy(i);
                    if ((i & 1023) == 0) {
                        try { throw new RuntimeException("x"); } catch (RuntimeException e) { }
                    }
                }
            }, "busy-" + t);
            th.setDaemon(false);
            th.start();
        }
        Families.waitFor(goFile);
        Thread.sleep(200);
        System.out.println("exiting");
        System.exit(0);
    }
}

class ManyThreads {
    static void run(int n) throws Exception {
        Thread[] ts = new Thread[100];
        int started = 0;
        while (started < n) {
            int batch = Math.min(100, n - started);
            for (int i = 0; i < batch; i++) {
                final int k = started + i;
                ts[i] = new Thread(() -> { if (k < 0) System.out.println(); }, "t-" + k);
                ts[i].start();
            }
            for (int i = 0; i < batch; i++)
                ts[i].join();
            started += batch;
        }
        System.out.println("threads " + n);
    }
}

// method.enter by breakpoints (agent/bpentry.h): a plain method, one whose
// first instruction is a loop's target (javac: 0: iload_0 ... goto 0), a
// native one, and a class first loaded after the registration.
class Entry {
    static int plain(int x) { return x + 1; }
    static void spin(int n) { while (n-- > 0) { } }
    static void run() {
        Families.printTid("main");
        int acc = 0;
        // java.base: Character is loaded at start-up, Adler32 only here
        java.util.zip.Adler32 sum = new java.util.zip.Adler32();
        acc += new EntryFinal().hashCode() != 0 ? 0 : 0;
        acc += EntryFinalBody.once();
        for (int i = 0; i < 3; i++) {
            acc += plain(i);
            spin(5);
            acc += EntryLazy.later(i);
            sum.update(i);
            acc += Character.isMirrored('(') ? 0 : 1000;
            acc += EntryTyped.typed(i) == i + 1 ? 0 : 1000;
        }
        System.out.println("adler " + sum.getValue());
        System.out.println("acc " + acc + (Runtime.getRuntime().availableProcessors() > 0 ? "" : "?"));
    }
}

// Lambdas: each lambda's class is a hidden class, which no agent may change;
// one is made before any bridge comes, one after.
class Lambdas {
    static Runnable early;
    static int f(int x) { return x + 1; }
    static void prepare() { early = () -> f(1); }
    static void run() {
        early.run();
        java.util.function.IntUnaryOperator late = x -> f(x);
        System.out.println("late " + late.applyAsInt(5));
    }
}

// Virtual threads (JDK 21+, reached by reflection: this file builds with JDK 17):
// five calls on a virtual thread, then two on main.
class VThreads {
    static int f(int x) { return x + 1; }
    static void run() throws Exception {
        printTids();
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        // through the public interface Thread.Builder: the class behind it is not exported
        java.lang.reflect.Method start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
        Thread t = (Thread) start.invoke(builder, (Runnable) () -> {
            Families.printTid("virtual");
            for (int i = 0; i < 5; i++) f(i);
        });
        t.join();
        for (int i = 0; i < 2; i++) f(i);
    }
    static void printTids() { Families.printTid("main"); }
}

// A type annotation inside code: the class-file rewriter leaves such a class alone.
@java.lang.annotation.Target(java.lang.annotation.ElementType.TYPE_USE)
@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
@interface Typed {}

class EntryTyped {
    static int typed(int x) {
        @Typed Integer boxed = x;
        return boxed + 1;
    }
}

// An empty finalize(): HotSpot takes such a class for one without a finalizer.
class EntryFinal {
    @SuppressWarnings("deprecation")
    @Override
    protected void finalize() {}
}

// A finalize() with a body is a method like any other: probed. The object
// stays reachable, so the finalizer thread never calls it: one call, ours.
class EntryFinalBody {
    static final EntryFinalBody KEEP = new EntryFinalBody();
    int calls;
    @SuppressWarnings("deprecation")
    @Override
    protected void finalize() { calls++; }
    static int once() { KEEP.finalize(); return KEEP.calls - 1; }
}

class EntryLazy {
    // a branch while a new object is not yet initialised: its stack map frames
    // hold Uninitialized(offset of the new), which injection must move too
    static int later(int x) { return new StringBuilder(x >= 0 ? "a" : "bc").length() - 1 + x * 2; }
}

// LateLink: loaded before a bridge registers, prepared after (latelink).
class LateLink {
    static int step(int x) { return x + 1; }
}

// Round after round, on demand: round N waits for DIR/go.N, calls
// tick(N) 10 times, then makes DIR/done.N; DIR/stop ends it ("rounds N").
class Rounds {
    static int tick(int round) { return round; }
    static void run(String dir) throws Exception {
        int round = 1;
        for (;; round++) {
            Path go = Paths.get(dir, "go." + round), stop = Paths.get(dir, "stop");
            while (!Files.exists(go) && !Files.exists(stop))
                Thread.sleep(5);
            if (!Files.exists(go))
                break;
            for (int i = 0; i < 10; i++)
                tick(round);
            Files.createFile(Paths.get(dir, "done." + round));
        }
        System.out.println("rounds " + (round - 1));
    }
}
