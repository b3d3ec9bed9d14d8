// The benchmark workload of bench/run (bench/README.md).
//
//   java Workload ITERATIONS [WARMUP [GATE]]
//       Runs WARMUP iterations (untimed, default ITERATIONS / 2) and then
//       ITERATIONS timed ones, and prints one line:
//         WORKLOAD iterations=N elapsed_ns=T ns_per_iter=X hot_calls=N cold_calls=N checksum=C
//       Every iteration calls hot(); every 1000th calls cold() as well, so
//       iteration counts are rounded up to whole thousands. With GATE (a file
//       path), it waits for that file to exist before the warm-up, so that a
//       tracer attached from outside (bpftrace -p) sees the whole run.
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

    static void waitFor(Path p, long sleepMs) throws InterruptedException {
        while (!Files.exists(p)) {
            Thread.sleep(sleepMs);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: Workload ITERATIONS [WARMUP [GATE]] | Workload 0 | Workload idle STOPFILE");
            System.exit(2);
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
        long acc = run(warmChunks, 1);
        long coldBefore = coldCalls;
        long t0 = System.nanoTime();
        acc = run(chunks, acc);
        long elapsed = System.nanoTime() - t0;
        long n = chunks * CHUNK;
        System.out.printf("WORKLOAD iterations=%d elapsed_ns=%d ns_per_iter=%.3f hot_calls=%d cold_calls=%d checksum=%d%n",
                n, elapsed, (double) elapsed / n, n, coldCalls - coldBefore, acc);
    }
}
