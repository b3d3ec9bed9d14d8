// SlowRequests: three requests, each slow for its own reason, for
// examples/slow-request.stp (JFR events beside kernel probes):
//
//   java -cp examples/java/classes SlowRequests DIR [GOFILE [STOPFILE]]
//
// "gc": the request's data is dropped and System.gc() runs (a full
// collection, cause "System.gc()"); "lock": the request needs the Ledger's
// monitor while the auditor thread holds it (the auditor lets go only once
// the request's thread is BLOCKED on it, a state the JVM reports: no
// sleep); "io": the request writes 1 MiB to DIR/request.log and forces it to
// disk (FileChannel.force, fsync(2)). With GOFILE it first waits (bounded,
// 60 s) for that file, so that a tool can arm its probes; with STOPFILE it
// waits (bounded) for that one before it exits, so that a tool can see the
// JVM's last JFR data while it still runs. Prints each request as it ends
// and DONE.
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

public class SlowRequests {
	static final class Ledger {
	}

	static final Ledger LEDGER = new Ledger();
	static byte[] garbage;

	public static void main(String[] args) throws Exception {
		if (args.length > 1)
			await(args[1]);
		gc();
		System.out.println("request gc done");
		lock();
		System.out.println("request lock done");
		io(args[0]);
		System.out.println("request io done");
		System.out.println("DONE");
		if (args.length > 2)
			await(args[2]);
	}

	static void await(String file) {
		Path p = Path.of(file);
		for (int i = 0; i < 60000 && !Files.exists(p); i++)
			LockSupport.parkNanos(1000000L);
	}

	static void gc() {
		garbage = new byte[32 << 20];
		garbage = null;
		System.gc();
	}

	static volatile boolean held, released;

	static void lock() {
		Thread me = Thread.currentThread();
		Thread auditor = new Thread(() -> {
			synchronized (LEDGER) {
				held = true;
				/* hold it until the request waits for it, then 20 ms more:
				 * a wait JFR's 1 ms threshold keeps */
				while (me.getState() != Thread.State.BLOCKED)
					LockSupport.parkNanos(100000L);
				LockSupport.parkNanos(20000000L);
			}
			released = true;
		}, "auditor");
		auditor.start();
		while (!held)
			LockSupport.parkNanos(100000L);
		synchronized (LEDGER) {
			LEDGER.hashCode();
		}
		/* not auditor.join(): join() enters the Thread's monitor, which
		 * the thread holds a moment as it ends (on a slow machine past
		 * JFR's 1 ms threshold: a second lock, not the request's) */
		while (!released)
			LockSupport.parkNanos(100000L);
	}

	static void io(String dir) throws IOException {
		try (RandomAccessFile f = new RandomAccessFile(dir + "/request.log", "rw")) {
			f.write(new byte[1 << 20]);
			f.getChannel().force(true);
		}
	}
}
