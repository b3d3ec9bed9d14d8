// Clog: a workload with known contention, waits, notifies (step 4, at the end), sleeps and joins,
// for testsuite/record.bats (the concurrency log of stpd-bridge --record).
//
//   java Clog GOFILE RELEASEFILE
//
// Everything is prepared, then it waits (bounded) for GOFILE, so the bridge
// has registered first. The steps run one after the other, and each waits
// for the state it needs, never for time:
//  1. holder takes LOCK and keeps it until RELEASEFILE exists; blocker then
//     contends for LOCK and gets it once holder lets go. The test creates
//     RELEASEFILE once the bridge has printed blocker's contended enter, so
//     the agent read the owner while holder held LOCK.
//  2. waiter waits on TIMED with a timeout nobody cuts short, then on MON
//     until main notifies it. main notifies only once waiter is WAITING and
//     MON has no owner (waiter let it go inside wait()), so neither of them
//     contends.
//  3. main joins sleeper, which sleeps (Thread.sleep(1), Thread.sleep(1, 0))
//     only once main waits in join and has let sleeper's Thread object go:
//     sleeper's end then takes that monitor without contention.
// Threads end one at a time (the next waits until the last is dead), so they
// never contend for the JVM's own locks (JDK 17's ThreadGroup); main joins a
// thread of steps 1 and 2 once it is dead. Threads wait for one another by
// polling volatile flags (parkNanos, warmed up first), never with a latch: a
// class initialised by two threads at once is a contended monitor too. No lambdas: every frame of the
// test's is a named method. At the end main prints "tid NAME=N" per thread.
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.locks.LockSupport;

public class Clog {
    static final class Lock { }
    static final class Mon { }
    static final Lock LOCK = new Lock();
    static final Mon MON = new Mon(), TIMED = new Mon();
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    static volatile boolean held, blockerReady;
    static final String[] tids = new String[5];
    static Path release;
    static Thread mainThread;

    static void pause() {
        LockSupport.parkNanos(1_000_000);
    }

    static void waitFor(Path p) {
        for (int i = 0; i < 30_000 && !Files.exists(p); i++)
            pause();
        if (!Files.exists(p)) {
            System.err.println("Clog: " + p + " never appeared");
            System.exit(99);
        }
    }

    static void awaitDead(Thread t) {
        while (t.isAlive())
            pause();
    }

    // T waits in Object.wait and has let the monitor go: no one owns it.
    static void awaitWaitingFree(Thread t) {
        for (;;) {
            ThreadInfo ti = MX.getThreadInfo(t.getId());
            if (ti != null && ti.getThreadState() == Thread.State.WAITING && ti.getLockOwnerId() == -1)
                return;
            pause();
        }
    }

    static final class Holder extends Thread {
        Holder() { super("holder"); }
        @Override public void run() {
            tids[1] = Families.osTid();
            synchronized (LOCK) {
                held = true;
                while (!blockerReady)
                    pause();
                waitFor(release);
            }
        }
    }

    static final class Blocker extends Thread {
        final Thread holder;
        Blocker(Thread holder) { super("blocker"); this.holder = holder; }
        @Override public void run() {
            tids[2] = Families.osTid();
            blockerReady = true;
            take();
            awaitDead(holder);
        }
        void take() {
            synchronized (LOCK) {
                LOCK.hashCode();
            }
        }
    }

    static final class Waiter extends Thread {
        Waiter() { super("waiter"); }
        @Override public void run() {
            tids[3] = Families.osTid();
            try {
                synchronized (TIMED) {
                    TIMED.wait(1);
                }
                synchronized (MON) {
                    MON.wait();
                }
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
        }
    }

    static final class Sleeper extends Thread {
        Sleeper() { super("sleeper"); }
        @Override public void run() {
            tids[4] = Families.osTid();
            awaitWaitingFree(mainThread);
            try {
                Thread.sleep(1);
                Thread.sleep(1, 0);
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
        }
    }

    static void contention() throws InterruptedException {
        Holder h = new Holder();
        Blocker b = new Blocker(h);
        h.start();
        while (!held)
            pause();
        b.start();
        awaitDead(b);
        h.join();
        b.join();
    }

    static void waitNotify() throws InterruptedException {
        Waiter w = new Waiter();
        w.start();
        awaitWaitingFree(w);
        synchronized (MON) {
            MON.notify();
        }
        awaitDead(w);
        w.join();
    }

    static void joinSleeper() throws InterruptedException {
        Sleeper s = new Sleeper();
        s.start();
        s.join();
    }

    public static void main(String[] args) throws Exception {
        Path go = Paths.get(args[0]);
        release = Paths.get(args[1]);
        mainThread = Thread.currentThread();
        // first uses (class loading and initialisation) before the recording
        tids[0] = Families.osTid();
        pause();
        Files.exists(go);
        MX.getThreadInfo(mainThread.getId());
        waitFor(go);
        contention();
        waitNotify();
        joinSleeper();
        notifies();
        String[] names = { "main", "holder", "blocker", "waiter", "sleeper" };
        for (int i = 0; i < names.length; i++)
            System.out.println("tid " + names[i] + "=" + tids[i]);
    }

    // 4. main notifies with nobody waiting: notify() 3 times and notifyAll()
    // twice, through each form javac gives a call (this.notify() in a
    // method of Box, a Methodref of Clog$Box; one of Clog$Mon; one of
    // java.lang.Object). Below everything else, so the lines above keep
    // their numbers.
    static final class Box {
        synchronized void ping() {
            notify();
        }
        synchronized void pingAll() {
            this.notifyAll();
        }
    }

    static void notifies() {
        Box box = new Box();
        for (int i = 0; i < 2; i++)
            box.ping();
        box.pingAll();
        synchronized (MON) {
            MON.notifyAll();
        }
        Object o = box;
        synchronized (o) {
            o.notify();
        }
    }
}
