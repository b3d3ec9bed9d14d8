// JavaIds: threads whose Java ids (Thread.getId()) are printed, for
// testsuite/record.bats (javaThreadId in the .jfr files stpd-bridge writes).
//
//   java JavaIds GOFILE
//
// It waits (bounded) for GOFILE, so the bridge has registered first; then
// main calls add once, starts the thread "worker", which calls add once,
// and joins it. It prints "javaid NAME=ID" for both, then "tid NAME=N" (the
// OS thread ids), main's lines first.
public class JavaIds {
    static volatile String workerTid;

    static int add(int a, int b) {
        return a + b;
    }

    static final class Worker extends Thread {
        Worker() { super("worker"); }
        @Override public void run() {
            workerTid = Families.osTid();
            add(3, 4);
        }
    }

    public static void main(String[] args) throws Exception {
        Families.waitFor(args[0]);
        add(1, 2);
        Worker w = new Worker();
        w.start();
        w.join();
        System.out.println("javaid main=" + Thread.currentThread().getId());
        System.out.println("javaid worker=" + w.getId());
        System.out.println("tid main=" + Families.osTid());
        System.out.println("tid worker=" + workerTid);
    }
}
