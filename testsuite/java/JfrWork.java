// JfrWork: a workload whose JFR events are known, for testsuite/jfr_live.bats
// (the live JFR chunk parser against the JDK's own reader).
//
//   java -XX:StartFlightRecording=... JfrWork FILE [GOFILE]
//
// Each step runs once, in order: System.gc() (jdk.GarbageCollection with
// cause "System.gc()"), a contended lock (jdk.JavaMonitorEnter: holder keeps
// LOCK until blocker is BLOCKED on it, a state the JVM reports, not a
// sleep; and blocker ends only once holder has: no other contended enter),
// a write of 4096 bytes to FILE (jdk.FileWrite), a thrown and caught
// IllegalStateException (jdk.JavaExceptionThrow with exceptions=all). With
// GOFILE it then waits, bounded, for GOFILE to exist, so that a test can copy
// the repository's chunk while the JVM still writes it. It prints DONE.
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

public class JfrWork {
	static final Object LOCK = new Object();
	static volatile boolean held;

	public static void main(String[] args) throws Exception {
		System.gc();
		contend();
		write(args[0]);
		try {
			throwIt();
		} catch (IllegalStateException e) {
			System.out.println("caught " + e.getMessage());
		}
		if (args.length > 1) {
			Path go = Path.of(args[1]);
			for (int i = 0; i < 60000 && !Files.exists(go); i++)
				LockSupport.parkNanos(1000000L);
		}
		System.out.println("DONE");
	}

	static void throwIt() {
		throw new IllegalStateException("jfr-work");
	}

	static void write(String file) throws IOException {
		try (FileOutputStream out = new FileOutputStream(file)) {
			out.write(new byte[4096]);
		}
	}

	static void contend() throws InterruptedException {
		Thread holder = new Thread(new Runnable() {
			public void run() {
				hold();
			}
		}, "jfr-holder");
		holder.start();
		while (!held)
			LockSupport.parkNanos(100000L);
		final Thread first = holder;
		Thread blocker = new Thread(new Runnable() {
			public void run() {
				synchronized (LOCK) {
					held = false;
				}
				// threads that end together contend for JDK 17's ThreadGroup: one at a time
				while (first.getState() != Thread.State.TERMINATED)
					LockSupport.parkNanos(100000L);
			}
		}, "jfr-blocker");
		blocker.start();
		holder.join();
		blocker.join();
	}

	static void hold() {
		synchronized (LOCK) {
			held = true;
			// LOCK is let go only once blocker waits for it: the enter is contended
			Thread blocker;
			while ((blocker = find("jfr-blocker")) == null || blocker.getState() != Thread.State.BLOCKED)
				LockSupport.parkNanos(100000L);
		}
	}

	static Thread find(String name) {
		for (Thread t : Thread.getAllStackTraces().keySet())
			if (t.getName().equals(name))
				return t;
		return null;
	}
}
