// HiddenNotify: a call of Object.notify() in an ordinary class and one in a
// hidden class (defined from HiddenPinger's bytes, never loaded as itself),
// for testsuite/agent.bats: the VM will not let the agent change a hidden
// class, so its call cannot be reported, and the agent says so.
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Paths;

public class HiddenNotify {
    static void plain() {
        Object o = new Object();
        synchronized (o) {
            o.notify();
        }
    }

    public static void main(String[] args) throws Throwable {
        for (int i = 0; i < 6000 && !Files.exists(Paths.get(args[0])); i++)
            Thread.sleep(5);
        plain();
        byte[] bytes;
        try (InputStream in = HiddenNotify.class.getResourceAsStream("HiddenPinger.class")) {
            bytes = in.readAllBytes();
        }
        MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(bytes, true);
        hidden.findStatic(hidden.lookupClass(), "ping", MethodType.methodType(void.class)).invoke();
        System.out.println("done");
    }
}

class HiddenPinger {
    static void ping() {
        Object o = new Object();
        synchronized (o) {
            o.notify();
        }
    }
}
