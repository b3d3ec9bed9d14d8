// Escape: for agent.bats "escape analysis". work()'s Points never escape, so
// C2's escape analysis allocates none of them. Run with -Xbatch, so that
// work() is compiled before the measured call, whatever the machine's speed.
class Escape {
    static final class Point {
        final int x, y;
        Point(int x, int y) { this.x = x; this.y = y; }
    }

    static long work(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            Point p = new Point(i, i + 1);
            s += p.x + p.y;
        }
        return s;
    }

    static void run() {
        com.sun.management.ThreadMXBean mx =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long s = 0;
        // past C2's thresholds for a whole-method compile (5000 calls), not
        // only a loop's (OSR): the measured call runs in C2's code throughout
        for (int i = 0; i < 6000; i++)
            s += work(1000);
        long before = mx.getCurrentThreadAllocatedBytes();
        s += work(1_000_000);
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        System.out.println("sum " + s);
        // a million Points are 16 MB at least; a few KB is the measuring's own
        System.out.println("points allocated: " + (allocated >= 1_000_000 ? "yes" : "no"));
    }
}
