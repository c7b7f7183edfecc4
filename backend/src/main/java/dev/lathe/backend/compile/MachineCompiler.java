package dev.lathe.backend.compile;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.program.Program;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.Shader;
import dev.lathe.ir.pass.PassInstrumentation;
import dev.lathe.ir.pass.PassInstrumentation.Settings;
import dev.lathe.ir.pass.PassRegistry;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The compiler from IR, optimized and lowered to scalar by the driver's pipeline, to machine
 * code: the machine pipeline ({@link MachinePasses}: isel, regalloc, linearize, legalize over a
 * {@link MachineFunction}), then branch offsets and statistics. The IR pass manager's
 * {@link PassInstrumentation} counts, times, verifies ({@link MachineVerifier}) and prints after
 * each machine pass too. The shader is changed in place;
 * {@link Result#optimized} is the IR instruction selection read.
 */
public final class MachineCompiler {
    private MachineCompiler() {}

    /** The compiled program, its statistics, and the IR it was selected from. */
    public record Result(Program program, Stats stats, Shader optimized) {}

    /** Compiles {@code shader} (scalar IR: the driver's pipeline lowered it) with the default machine pipeline. */
    public static Result compile(Shader shader) {
        return compile(shader, MachinePasses.DEFAULT, Allocation.DEFAULT, new PassInstrumentation(Settings.none()));
    }

    /** Compiles {@code shader} with the default machine pipeline, verifying the program after every pass (as tests do). */
    public static Result compileVerifying(Shader shader) {
        return compile(
                shader, MachinePasses.DEFAULT, Allocation.DEFAULT, new PassInstrumentation(Settings.verifying()));
    }

    /**
     * Compiles {@code shader} with the machine pipeline {@code passes} (checked by {@link MachinePasses#pipeline}),
     * register allocation within {@code allocation}, each pass counted, verified and printed by
     * {@code instrumentation} (the IR pipeline's, when the driver compiles).
     */
    public static Result compile(
            Shader shader, List<String> passes, Allocation allocation, PassInstrumentation instrumentation) {
        List<PassRegistry.Entry> pipeline = MachinePasses.pipeline(passes);
        MachineFunction mf = new MachineFunction(shader);
        mf.allocation = allocation;
        mf.repeatGroups = MachinePasses.formsRepeats(passes);
        for (PassRegistry.Entry entry : pipeline) {
            MachinePass pass = (MachinePass) entry.factory().get();
            long start = System.nanoTime();
            pass.run(mf);
            instrumentation.ran(entry.name(), true, System.nanoTime() - start);
            instrumentation.after(
                    entry.name(),
                    () -> MachineVerifier.verify(mf),
                    "the machine program is wrong after " + entry.name(),
                    mf::print,
                    IllegalStateException::new,
                    "// after " + entry.name(),
                    mf::print);
        }
        List<MInstr> code = mf.linear.resolve();
        int loops = countLoops(mf.fn);
        Program p = new Program(
                shader,
                mf.layout.slots,
                mf.layout.constants,
                mf.layout.localBytes,
                mf.privateBytes,
                loops,
                mf.preloads,
                mf.preamble,
                code);
        return new Result(
                p,
                Stats.of(
                        code,
                        mf.preamble,
                        mf.layout.nextConst,
                        loops,
                        mf.maxLive,
                        new Stats.Spilling(mf.spills, mf.fills, mf.spillCost)),
                shader);
    }

    static int countLoops(Function fn) {
        int n = 0;
        ArrayDeque<CfNode> work = new ArrayDeque<>();
        fn.body().forEach(work::add);
        while (!work.isEmpty()) {
            CfNode c = work.poll();
            if (c instanceof LoopNode l) {
                n++;
                l.body().forEach(work::add);
            } else if (c instanceof IfNode f) {
                f.thenList().forEach(work::add);
                f.elseList().forEach(work::add);
            }
        }
        return n;
    }
}
