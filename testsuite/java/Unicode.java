// Unicode: names and strings outside ASCII and the BMP, for the modified
// UTF-8 tests of testsuite/agent.bats (Families scenarios "unicode" and
// "unicode-loaded").
//
// JVMTI and class files give names in modified UTF-8: a character outside
// the BMP is a surrogate pair there (six bytes) and U+0000 is C0 80; the
// agent sends standard UTF-8. The names below use U+1D518 MATHEMATICAL
// FRAKTUR CAPITAL U, a letter, written \uD835\uDD18 so that this source is
// ASCII whatever javac's encoding (the tests expect it in UTF-8). The class
// Ex\uD835\uDD18 is a file with that name in UTF-8, which javac and the JVM
// write and find only in a UTF-8 locale (local.mk and the tests set one).
class Unicode {
    static String h\uD835\uDD18llo(String s) { return s + "!"; }

    static void thr\uD835\uDD18w() { throw new Ex\uD835\uDD18("bad"); }

    static int take(Ex\uD835\uDD18 e) { return 1; }

    static void run() throws Exception {
        Families.printTid("main");
        h\uD835\uDD18llo("a\0b");
        h\uD835\uDD18llo("x\uD83D\uDE00y");   // U+1F600, outside the BMP
        try {
            thr\uD835\uDD18w();
        } catch (Ex\uD835\uDD18 e) {
            take(e);
        }
        for (String name : new String[] { "w\uD835\uDD18rker", "nul\0name" }) {
            Thread t = new Thread(() -> { }, name);
            t.start();
            t.join();
        }
    }
}

class Ex\uD835\uDD18 extends RuntimeException {
    Ex\uD835\uDD18(String message) { super(message); }
}
