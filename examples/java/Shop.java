// Shop.java: a request that waits for a lock, for examples/contention.stp.
// Each order goes down a deep stack (nest) to take() from the stock; the
// second order finds the stock's lock held by the "holder" thread, which
// lets it go once the order's thread is blocked on it: 50 ms later, or, with
// an argument, once that file exists (the testsuite creates it when the
// script has seen the wait, so the run is the same every time).
import java.nio.file.Files;
import java.nio.file.Paths;

public class Shop {
    static final class Stock { int left = 10; }

    static final Stock stock = new Stock();
    static volatile boolean held;

    static void take(int n) {
        synchronized (stock) {
            stock.left -= n;
        }
    }

    static void nest(int depth, int n) {
        if (depth == 0)
            take(n);
        else
            nest(depth - 1, n);
    }

    static void order(int id, long cents) {
        nest(30, 1);
    }

    static void hold(Thread waiter, String release) {
        synchronized (stock) {
            held = true;
            try {
                while (waiter.getState() != Thread.State.BLOCKED)
                    Thread.sleep(1);
                if (release == null)
                    Thread.sleep(50);
                while (release != null && !Files.exists(Paths.get(release)))
                    Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String release = args.length > 0 ? args[0] : null;
        order(1, 1250L);
        Thread me = Thread.currentThread();
        Thread holder = new Thread(() -> hold(me, release), "holder");
        holder.start();
        while (!held)
            Thread.onSpinWait();
        order(2, 99L);
        holder.join();
        System.out.println("left " + stock.left);
    }
}
