// Retransformer: a Java agent (-javaagent:retransformer.jar) that retransforms
// the classes it is asked to, as monitoring agents do, beside ours:
// testsuite/agent.bats's "natives" scenario has it retransform a class that is
// loaded but not yet linked, whose natives our agent wrapped.
import java.lang.instrument.Instrumentation;

public class Retransformer {
    private static Instrumentation inst;

    public static void premain(String args, Instrumentation i) {
        inst = i;
    }

    static String retransform(Class<?> c) {
        try {
            inst.retransformClasses(c);
            return "retransformed";
        } catch (Throwable t) {
            return "refused: " + t;
        }
    }
}
