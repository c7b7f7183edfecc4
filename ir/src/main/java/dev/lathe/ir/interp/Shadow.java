package dev.lathe.ir.interp;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.Value;
import dev.lathe.ir.Variable;
import java.util.Map;

/**
 * What a run computes beside the bits, value by value: NaN provenance ({@link NanProvenance}:
 * which NaNs the NaN contract leaves open) and, in the Vulkan oracle, the interval a conforming
 * implementation may give each float. The interpreter calls every shadow it was given
 * ({@link Interpreter#track}) at the same points, so it knows none of them: one hook, whatever a
 * shadow tracks.
 *
 * <p>A {@link Model} is what an interpreter is given; it makes a {@link Dispatch} for each run
 * or dispatch (what its invocations share: memory, the first undecided place), which makes one
 * {@code Shadow} per invocation.
 */
public interface Shadow {
    /** A kind of shadow, as an interpreter is given it. */
    interface Model {
        /** The state one run or dispatch shares among its invocations. */
        Dispatch dispatch();
    }

    /** A dispatch's shared state. */
    interface Dispatch {
        /** The shadow of one invocation, which reads the run through {@code run}. */
        Shadow invocation(RunState run);
    }

    /** The storage of a local was made (the interpreter zeroes it; Vulkan gives it no value until written). */
    default void localStorage(long[] storage) {}

    /** What {@code v} carries, for a phi that takes it (read for every phi of a block before any is set). */
    Object carried(Value v);

    /** Phi {@code d} takes what {@link #carried} gave. */
    void carry(Value d, Object carried);

    /** An ALU instruction ran: {@code srcs} are its swizzled sources, {@code dst} its result. */
    void alu(AluInstr a, long[][] srcs, long[] dst);

    /** A constant was loaded. */
    void constant(Value d);

    /** An {@code undef} was defined (the interpreter gives it zeros). */
    void undef(Value d);

    /** Intrinsic {@code i} is about to run: its sources are read, memory still holds what it will read. */
    void intrinsic(IntrinsicInstr i);

    /** Value {@code d} was given {@code bits} (every definition, after the hooks above). */
    default void defined(Value d, long[] bits) {}

    /** The run's outputs with what this shadow found added; {@code buffers} by variable. */
    ShaderOutputs finish(ShaderOutputs outputs, Map<Variable, byte[]> buffers);
}
