// Corpus source for fuzz_classfile: tableswitch, lookupswitch, string switch.
public class Switches {
    static int table(int k) {
        switch (k) {
        case 0: return 10;
        case 1: return 11;
        case 2: return 12;
        case 3: k += 4; break;
        default: return -1;
        }
        return k;
    }

    static long lookup(int k) {
        switch (k) {
        case -100000: return 1L;
        case 7: return 2L;
        case 1 << 20: return 3L;
        default: return k * 3L;
        }
    }

    static String strings(String s) {
        switch (s) {
        case "alpha": return "a";
        case "beta": return "b";
        case "Aa": case "BB": return "collision";
        default: return s.isEmpty() ? "" : s.substring(1);
        }
    }

    double loop(int n) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            switch (i & 3) {
            case 0: sum += i; break;
            case 1: sum -= 0.5; continue;
            case 2: if (sum > 1e9) return sum; break;
            default: sum *= 1.0001;
            }
        }
        return sum;
    }
}
