// The benchmark workload of bench/run (bench/README.md).
//
//   java Workload ITERATIONS [WARMUP [GATE]]
//       Runs WARMUP iterations (untimed, default ITERATIONS / 2) and then
//       ITERATIONS timed ones, and prints one line:
//         WORKLOAD iterations=N elapsed_ns=T ns_per_iter=X cpu_ns_per_iter=X hot_calls=N cold_calls=N checksum=C
//       cpu_ns_per_iter: the CPU time of the thread that runs the iterations
//       (ThreadMXBean, the timed phase), -1 where the JVM cannot say.
//       Every iteration calls hot(); every 1000th calls cold() as well, so
//       iteration counts are rounded up to whole thousands. With GATE (a file
//       path), it waits for that file to exist before the warm-up, so that a
//       tracer attached from outside (bpftrace -p) sees the whole run.
//   java Workload threads T ITERATIONS [WARMUP]
//       The same with T threads, each running its own ITERATIONS (and
//       WARMUP) at once after a common start; cold() builds its own string
//       there. ns_per_iter is the wall time of the timed phase over
//       ITERATIONS: with T threads on T free cores it stays the single
//       thread's, and what the threads share (a lock, a cache line) shows.
//   java Workload 0
//       Exits at once (start-up time).
//   java Workload idle STOPFILE
//       Warms up briefly, prints "READY", then idles until STOPFILE exists
//       (memory figures of an idle JVM).
//
// The work is done in chunks of 1000 iterations by one method, chunk(), which
// a warm-up of 1 000 000 iterations or more calls often enough (HotSpot's
// tiered policy wants 600 calls) for C2 to compile it normally, not only by
// on-stack replacement, before the timed phase starts. Every result
// feeds the checksum, which is printed, so the JIT cannot drop any of it.

import java.nio.file.Files;
import java.nio.file.Path;

public final class Workload {
    static final int CHUNK = 1000;
    static final long[] TABLE = new long[64];
    static final StringBuilder COLD_BUF = new StringBuilder(256);
    static long coldCalls;

    static {
        long s = 0x243F6A8885A308D3L;
        for (int i = 0; i < TABLE.length; i++) {
            s ^= s << 13; s ^= s >>> 7; s ^= s << 17;
            TABLE[i] = s;
        }
    }

    /** Called every iteration: a few dozen ns of table lookups and mixing. */
    static long hot(long x) {
        long h = x;
        for (int i = 0; i < 24; i++) {
            h ^= TABLE[(int) (h & 63)];
            h *= 0x9E3779B97F4A7C15L;
            h ^= h >>> 29;
        }
        return h;
    }

    /** Called once per 1000 iterations: formats and hashes a string (library calls, an allocation). */
    static long cold(long x) {
        coldCalls++;
        COLD_BUF.setLength(0);
        COLD_BUF.append("cold:").append(x).append(':').append(Long.toHexString(x ^ coldCalls));
        return COLD_BUF.toString().hashCode() + x;
    }

    /** 1000 iterations: hot() on each, cold() on the last. */
    static long chunk(long acc) {
        for (int i = 0; i < CHUNK - 1; i++) {
            acc += hot(acc + i);
        }
        acc += hot(acc + CHUNK - 1);
        return acc ^ cold(acc);
    }

    static long run(long chunks, long acc) {
        for (long c = 0; c < chunks; c++) {
            acc = chunk(acc);
        }
        return acc;
    }

    /** cold() for threads(): nothing shared between the threads. */
    static long coldLocal(long x) {
        return ("cold:" + x + ':' + Long.toHexString(x)).hashCode() + x;
    }

    static long chunkLocal(long acc) {
        for (int i = 0; i < CHUNK - 1; i++) {
            acc += hot(acc + i);
        }
        acc += hot(acc + CHUNK - 1);
        return acc ^ coldLocal(acc);
    }

    static long runLocal(long chunks, long acc) {
        for (long c = 0; c < chunks; c++) {
            acc = chunkLocal(acc);
        }
        return acc;
    }

    static void threads(int t, long iterations, long warmup) throws Exception {
        long chunks = (iterations + CHUNK - 1) / CHUNK, warmChunks = (warmup + CHUNK - 1) / CHUNK;
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(t + 1);
        java.util.concurrent.CyclicBarrier end = new java.util.concurrent.CyclicBarrier(t + 1);
        long[] sums = new long[t];
        Thread[] ts = new Thread[t];
        for (int k = 0; k < t; k++) {
            final int id = k;
            ts[k] = new Thread(() -> {
                try {
                    long acc = runLocal(warmChunks, id + 1);
                    start.await();
                    sums[id] = runLocal(chunks, acc);
                    end.await();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }, "work-" + k);
            ts[k].start();
        }
        start.await();
        long t0 = System.nanoTime();
        end.await();
        long elapsed = System.nanoTime() - t0;
        long acc = 0;
        for (int k = 0; k < t; k++) {
            ts[k].join();
            acc ^= sums[k];
        }
        long n = chunks * CHUNK;
        System.out.printf("WORKLOAD threads=%d iterations=%d elapsed_ns=%d ns_per_iter=%.3f hot_calls=%d checksum=%d%n",
                t, n, elapsed, (double) elapsed / n, n * t, acc);
    }

    static void waitFor(Path p, long sleepMs) throws InterruptedException {
        while (!Files.exists(p)) {
            Thread.sleep(sleepMs);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: Workload ITERATIONS [WARMUP [GATE]] | Workload threads T ITERATIONS [WARMUP] | Workload 0 | Workload idle STOPFILE");
            System.exit(2);
        }
        if (args[0].equals("threads")) {
            long it = Long.parseLong(args[2]);
            threads(Integer.parseInt(args[1]), it, args.length > 3 ? Long.parseLong(args[3]) : it / 2);
            return;
        }
        if (args[0].equals("idle")) {
            long acc = run(200, 1);
            System.out.println("READY checksum=" + acc);
            waitFor(Path.of(args[1]), 100);
            return;
        }
        long iterations = Long.parseLong(args[0]);
        if (iterations == 0) {
            return;
        }
        long chunks = (iterations + CHUNK - 1) / CHUNK;
        long warmChunks = args.length > 1 ? (Long.parseLong(args[1]) + CHUNK - 1) / CHUNK : chunks / 2;
        if (args.length > 2) {
            waitFor(Path.of(args[2]), 10);
        }
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        boolean cpuKnown = threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
        long acc = run(warmChunks, 1);
        long coldBefore = coldCalls;
        long cpu0 = cpuKnown ? threads.getCurrentThreadCpuTime() : 0;
        long t0 = System.nanoTime();
        acc = run(chunks, acc);
        long elapsed = System.nanoTime() - t0;
        long n = chunks * CHUNK;
        double cpuPerIter = cpuKnown ? (double) (threads.getCurrentThreadCpuTime() - cpu0) / n : -1;
        System.out.printf("WORKLOAD iterations=%d elapsed_ns=%d ns_per_iter=%.3f cpu_ns_per_iter=%.3f hot_calls=%d cold_calls=%d checksum=%d%n",
                n, elapsed, (double) elapsed / n, cpuPerIter, n, coldCalls - coldBefore, acc);
    }
}
