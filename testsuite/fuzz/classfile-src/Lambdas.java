// Corpus source for fuzz_classfile: lambdas, method references,
// invokedynamic, generics (LocalVariableTypeTable), type annotations in code.
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

public class Lambdas {
    @Target(ElementType.TYPE_USE)
    @Retention(RetentionPolicy.RUNTIME)
    @interface TA { int value() default 0; }

    static <T extends Comparable<T>> List<T> sorted(List<T> in) {
        @TA List<T> out = new @TA(1) ArrayList<>(in);
        out.sort((a, b) -> b.compareTo(a));
        return out;
    }

    static Function<Integer, String> fmt(String prefix) {
        return i -> prefix + i;
    }

    static Supplier<Object> maker() {
        return Object::new;
    }

    static int casts(Object o) {
        if (o instanceof @TA String) {
            String s = (@TA(2) String) o;
            return s.length();
        }
        try {
            return ((Number) o).intValue();
        } catch (@TA ClassCastException e) {
            return -1;
        }
    }
}
