// Natives: native methods for testsuite/agent.bats's "natives" scenario, with
// their code in libnatives.so (natives.c). Natives is loaded after the
// registration, so the agent wraps the natives it selects; NativesEarly is
// loaded before it, so its native can only be said not reported.
// NativesUnlinked is loaded during the registration but not linked, and then
// retransformed by another agent (Retransformer.java), which must find its
// natives wrapped again.
import java.io.IOException;

class Natives {
    static native long sum(int a, long b, double c);          // linked by its JNI name
    native String greet(String who);                          // bound by RegisterNatives
    synchronized native int locked(int x);                    // +1 when the monitor is held
    static native void boom(int code) throws IOException;     // throws from native code

    static void round(Natives n, String tag) {
        for (int i = 0; i < 2; i++) {
            System.out.println(tag + " sum " + sum(i, 10L * i, 0.5));
            System.out.println(tag + " greet " + n.greet("x" + i));
            System.out.println(tag + " locked " + n.locked(i));
        }
        try {
            boom(7);
        } catch (IOException e) {
            System.out.println(tag + " caught " + e.getMessage() + " in " + e.getStackTrace()[0].getMethodName());
        }
    }

    static void run(String lib, String go2) throws Exception {
        System.load(lib);
        Natives n = new Natives();
        round(n, "a");
        System.out.println("early " + NativesEarly.twice(21));
        Class<?> u = Class.forName("NativesUnlinked", false, Natives.class.getClassLoader());
        System.out.println("unlinked " + Retransformer.retransform(u));
        NativesUnlinked nu = new NativesUnlinked();
        System.out.println("unlinked " + nu.half(42) + " " + NativesUnlinked.third(9));
        // the test ends the session here; the classes go back to their code
        Families.waitFor(go2);
        round(n, "b");
        System.out.println("early " + NativesEarly.twice(4));
        System.out.println("unlinked " + nu.half(42) + " " + NativesUnlinked.third(9));
    }
}

class NativesEarly {
    static native int twice(int x);
}

class NativesUnlinked {
    native int half(int x);             // a private instance native once wrapped: one the VM cannot drop
    static native int third(int x);     // a private static one, which it could
}
