// Named: methods in a package, with overloads and look-alike names, for the
// filtering tests of testsuite/agent.bats (Families filters).
package sj.filt;

public class Named {
    public static int over() { return 0; }
    public static int over(int a) { return a; }
    public static int over(String s) { return s.length(); }
    public static int overt(int a) { return a + 1; }   // "over" is a prefix, not an overload
    public static int getA() { return 1; }
    public static int getB() { return 2; }
    public static int other() { return 3; }

    public static class Inner {
        public static int over(long x) { return (int) x; }
    }

    public static void run() {
        over();
        over(7);
        over("abc");
        overt(1);
        getA();
        getB();
        other();
        Inner.over(5L);
    }
}
