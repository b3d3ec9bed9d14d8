// Hello: a small program for the demo of `./quickstart demo`. Its events flow
// from the agent in the JVM to `stpd-bridge --print`: calls with arguments and
// return values, an exception thrown and caught, a named thread.
public class Hello {
    static int add(int a, int b) {
        return a + b;
    }

    static String greet(String who) {
        return "hello, " + who;
    }

    static void fail(String why) {
        throw new IllegalStateException(why);
    }

    public static void main(String[] args) throws Exception {
        System.out.println(greet("stapjava"));
        System.out.println("2 + 3 = " + add(2, 3));
        try {
            fail("on purpose");
        } catch (IllegalStateException e) {
            System.out.println("caught: " + e.getMessage());
        }
        Thread worker = new Thread(() -> add(40, 2), "worker-1");
        worker.start();
        worker.join();
    }
}
