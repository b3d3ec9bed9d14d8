import java.lang.module.ModuleReader;
import java.lang.module.ResolvedModule;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Loads and links (getDeclaredMethods links, so the verifier runs) every
 * class of the boot layer's modules, or the first N of them in name order,
 * then runs some code through the JDK (collections, streams, formatting,
 * exceptions through frames, a thread that dies of an exception) so the
 * rewritten code also runs. Prints "linked N", "failed N" and, for each
 * failure, "FAIL class: error". Exit status 0 only if nothing failed; main
 * returns (no System.exit) then, so every call it made has returned.
 *
 * usage: LoadAll [MAX_CLASSES] [MODULE_PREFIX]
 */
public class LoadAll {
	public static void main(String[] args) throws Exception {
		int max = args.length > 0 ? Integer.parseInt(args[0]) : Integer.MAX_VALUE;
		String prefix = args.length > 1 ? args[1] : "";
		TreeMap<String, Module> names = new TreeMap<>();
		for (ResolvedModule rm : ModuleLayer.boot().configuration().modules()) {
			if (!rm.name().startsWith(prefix))
				continue;
			Module m = ModuleLayer.boot().findModule(rm.name()).orElseThrow();
			try (ModuleReader r = rm.reference().open()) {
				r.list().filter(n -> n.endsWith(".class") && !n.endsWith("module-info.class"))
					.forEach(n -> names.put(n.substring(0, n.length() - 6).replace('/', '.'), m));
			}
		}
		int linked = 0, failed = 0;
		List<String> failures = new ArrayList<>();
		for (var e : names.entrySet()) {
			if (linked + failed >= max)
				break;
			try {
				ClassLoader l = e.getValue().getClassLoader();
				Class<?> c = Class.forName(e.getKey(), false, l);
				c.getDeclaredMethods();
				linked++;
			} catch (LinkageError | ClassNotFoundException | SecurityException x) {
				// a class that cannot load for reasons of its own (a missing
				// optional dependency) is not ours: only VerifyError and
				// ClassFormatError count
				if (x instanceof VerifyError || x instanceof ClassFormatError) {
					failed++;
					failures.add("FAIL " + e.getKey() + ": " + x);
				} else {
					linked++;
				}
			}
		}
		exercise();
		System.out.println("linked " + linked);
		System.out.println("failed " + failed);
		for (String f : failures)
			System.out.println(f);
		if (failed > 0)
			System.exit(1);
	}

	static int thrower(int n) {
		if (n == 0)
			throw new IllegalStateException("bottom");
		try {
			return thrower(n - 1) + 1;
		} finally {
			n++;
		}
	}

	static void exercise() throws Exception {
		var m = new java.util.HashMap<String, Integer>();
		for (int i = 0; i < 1000; i++)
			m.merge("k" + (i % 37), i, Integer::sum);
		long s = m.values().stream().mapToLong(Integer::longValue).filter(v -> v % 2 == 0).sum();
		String f = String.format("%d %s %.2f", s, m.size(), 3.14159);
		for (int i = 0; i < 100; i++) {
			try {
				thrower(i % 10);
			} catch (IllegalStateException x) {
				f = f + x.getMessage().charAt(0);
			}
		}
		Thread t = new Thread(() -> thrower(3), "dies");
		t.setUncaughtExceptionHandler((th, x) -> { });
		t.start();
		t.join();
		if (f.isEmpty())
			throw new AssertionError();
	}
}
