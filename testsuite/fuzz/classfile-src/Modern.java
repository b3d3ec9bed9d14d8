// Corpus source for fuzz_classfile (release 17 only): a record, switch
// expressions with yield, pattern matching, a sealed interface, text blocks.
public class Modern {
    sealed interface Shape permits Circle, Square {}
    record Circle(double r) implements Shape {}
    record Square(double side) implements Shape {}

    static double area(Shape s) {
        if (s instanceof Circle c) return Math.PI * c.r() * c.r();
        if (s instanceof Square q && q.side() > 0) return q.side() * q.side();
        return 0;
    }

    static int days(String month) {
        return switch (month) {
            case "feb" -> 28;
            case "apr", "jun", "sep", "nov" -> 30;
            default -> {
                if (month.isEmpty()) yield -1;
                yield 31;
            }
        };
    }

    static String text() {
        return """
            one
            two""";
    }
}
