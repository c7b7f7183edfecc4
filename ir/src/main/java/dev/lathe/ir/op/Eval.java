package dev.lathe.ir.op;

/**
 * The evaluation function of an op. Per-component ops are given one component of each source at
 * a time; horizontal ops see whole vectors.
 *
 * <p>Arguments and results are raw bit patterns zero-extended in a {@code long}. {@code bits} is
 * the instruction's unsized bit size (see {@link OperandType}); the caller masks the result to
 * the result's bit size.
 */
public sealed interface Eval {

    /** A per-component function of up to four sources; unused arguments are 0. */
    @FunctionalInterface
    interface ComponentFn {
        long apply(long a, long b, long c, long d, int bits);
    }

    @FunctionalInterface
    interface Unary {
        long apply(long a, int bits);
    }

    @FunctionalInterface
    interface Binary {
        long apply(long a, long b, int bits);
    }

    @FunctionalInterface
    interface Ternary {
        long apply(long a, long b, long c, int bits);
    }

    @FunctionalInterface
    interface Quaternary {
        long apply(long a, long b, long c, long d, int bits);
    }

    /** A horizontal function: {@code src[i]} holds the components of source i. */
    @FunctionalInterface
    interface VectorFn {
        void apply(long[][] src, long[] dst, int bits);
    }

    record PerComponent(ComponentFn fn) implements Eval {}

    record Horizontal(VectorFn fn) implements Eval {}

    static Eval unary(Unary f) {
        return new PerComponent((a, b, c, d, n) -> f.apply(a, n));
    }

    static Eval binary(Binary f) {
        return new PerComponent((a, b, c, d, n) -> f.apply(a, b, n));
    }

    static Eval ternary(Ternary f) {
        return new PerComponent((a, b, c, d, n) -> f.apply(a, b, c, n));
    }

    static Eval quaternary(Quaternary f) {
        return new PerComponent(f::apply);
    }

    static Eval horizontal(VectorFn f) {
        return new Horizontal(f);
    }
}
