package dev.lathe.backend.isa;

/**
 * The target's timing, in one place (as ir3's {@code ir3_delay.c} is for the hardware): the
 * legalizer makes code obey it, the simulator checks it on every register access, the
 * statistics estimate cycles with it, and a scheduler plans with it. {@code backend/ISA.md}
 * ("Latency rules") states the same rules for people.
 *
 * <p>Each machine op produces its results in one of three ways ({@link MOp#latency()}): an ALU
 * result is ready a fixed number of issue slots after its instruction issued, depending on who
 * reads it ({@link #aluDelay}); SFU and load results arrive later, at a time the code cannot
 * count on, and are waited for with {@code (ss)} and {@code (sy)}; the cycles they take are only
 * the simulator's and the estimate's model.
 */
public final class Latency {
    private Latency() {}

    /** How a result becomes ready. */
    public enum Kind {
        /** cat1–cat3 (and writes of p0.x): ready after {@link #aluDelay} slots. */
        ALU,
        /** cat4: waited for with {@code (ss)}. */
        SFU,
        /** cat5 texture fetches, cat6 loads and atomics: waited for with {@code (sy)}. */
        LOAD
    }

    /** Slots between an ALU write and a read by an ALU, flow or barrier instruction (and any read of p0.x). */
    public static final int ALU_TO_ALU = 3;

    /** Slots between an ALU write and a read by an SFU, texture or memory instruction. */
    public static final int ALU_TO_OTHER = 6;

    /** Slots between {@code mova} writing a0.x and an instruction reading {@code c<a0.x + n>} (ir3 waits six). */
    public static final int ADDRESS_DELAY = 6;

    /** Cycles from issue until an SFU result is written (the model's; code waits with (ss)). */
    public static final int SFU_CYCLES = 10;

    /** Cycles from issue until a load's, texture fetch's or atomic's result is written (code waits with (sy)). */
    public static final int LOAD_CYCLES = 20;

    /**
     * The issue slots a reader must come after the ALU instruction that wrote a register:
     * {@code consumer} reads a general register, or p0.x when {@code predicate}.
     */
    public static int aluDelay(MOp consumer, boolean predicate) {
        if (predicate) return ALU_TO_ALU;
        // The registers `end` names are read once the ALU pipeline has drained: as ir3_delay.c
        // says, shader outputs need no delay (SFU and load results still need (ss)/(sy)).
        if (consumer == MOp.END) return 0;
        return readsLate(consumer) ? ALU_TO_OTHER : ALU_TO_ALU;
    }

    /**
     * The slots a reader should issue after a producer of {@code kind} to find its result ready
     * without waiting: the ALU delay ({@code lateReader}: read by an SFU, texture or memory
     * instruction), or the SFU's and loads' cycles (which code waits for with (ss)/(sy)) — what
     * the schedulers plan with.
     */
    public static int readyAfter(Kind kind, boolean lateReader) {
        return switch (kind) {
            case ALU -> lateReader ? ALU_TO_OTHER : ALU_TO_ALU;
            case SFU -> SFU_CYCLES;
            case LOAD -> LOAD_CYCLES;
        };
    }

    /**
     * The slots {@code reader} should issue after a producer of {@code kind}: the ALU delay it
     * must respect ({@link #aluDelay}), or the cycles an SFU or load result takes.
     */
    public static int readyAfter(Kind kind, MOp reader, boolean predicate) {
        return kind == Kind.ALU ? aluDelay(reader, predicate) : cycles(kind);
    }

    /** Whether {@code consumer} reads its registers in the SFU, texture or memory pipeline (cat4–cat6). */
    public static boolean readsLate(MOp consumer) {
        int c = consumer.category();
        return c >= 4 && c <= 6;
    }

    /** The cycles until a result of this kind is written; ALU results are written at issue. */
    public static int cycles(Kind kind) {
        return switch (kind) {
            case ALU -> 0;
            case SFU -> SFU_CYCLES;
            case LOAD -> LOAD_CYCLES;
        };
    }
}
