// JfrGc: System.gc() calls at a test's signal, for the java.jfr tests of
// testsuite/agent.bats (jdk.GarbageCollection with cause "System.gc()").
//
//   java JfrGc GOFILE N [STOPFILE]
//
// Waits (bounded, 60 s) for GOFILE to exist, so that the test can first see
// the JFR recording live; then calls System.gc() N times, printing "gc I"
// after each; then, with STOPFILE, waits (bounded) for it before it exits,
// so that a test can watch the JVM after its sessions leave. Prints DONE.
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

public class JfrGc {
	static void await(String file) {
		Path p = Path.of(file);
		for (int i = 0; i < 60000 && !Files.exists(p); i++)
			LockSupport.parkNanos(1000000L);
	}

	public static void main(String[] args) {
		await(args[0]);
		int n = Integer.parseInt(args[1]);
		for (int i = 1; i <= n; i++) {
			System.gc();
			System.out.println("gc " + i);
		}
		if (args.length > 2)
			await(args[2]);
		System.out.println("DONE");
	}
}
