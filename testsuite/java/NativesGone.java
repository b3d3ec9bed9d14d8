// NativesGone: a class with a native method, defined by throw-away class
// loaders in Families' "natives-gone" scenario, each round its own (agent.bats:
// the agent forgets the natives it wrapped once the loader is collected).
public class NativesGone {
    public static native int gone(int x);   // wrapped, never called nor linked
    public static int alive() { return 1; }
}
