package dev.lathe.driver.shaderdb;

import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.program.Program;
import dev.lathe.backend.sim.Simulator;
import dev.lathe.driver.Compiler;
import dev.lathe.ir.AluFlags;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.InterpreterException;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;

/**
 * Runs a compiled shader in the simulator against the IR interpreter on seeded random inputs
 * (compute shaders as a dispatch of two workgroups). Two comparisons, both under the NaN
 * contract of {@code ir/README.md} (bit for bit, except that where the reference holds a NaN a
 * float operation made, any NaN may stand):
 *
 * <ul>
 *   <li>the binary compiled as usual against the interpreter on the IR it was selected from
 *       (inexact {@code ~=>} rules such as fma fusion may have changed that IR's results, and on
 *       huge random inputs their rounding differences are not small);
 *   <li>the binary compiled with every instruction marked exact (so no {@code ~=>} rule fires)
 *       against the interpreter on the shader as it came in.
 * </ul>
 *
 * An input set on which the reference itself fails — the interpreter on the unoptimized shader
 * reaches its loop iteration limit (random inputs can make a loop bound huge) or stops on the
 * shader's own undefined behaviour (a barrier in divergent control flow) — is skipped and
 * counted: nothing can be compared on it. Every other failure, of the optimized IR, of the
 * compiler or of the simulator, is a disagreement. An input set on which the reference reads the
 * bits of a NaN whose bits are open has many allowed outcomes: a bit-for-bit match counts, a
 * difference is skipped as undecided. When no input set could be compared, that is a failure
 * too. Both compilations verify the program after every pass, IR and machine. Used by
 * {@code lathe shaderdb --check N}, the fuzzers and the corpus tests.
 */
public final class DifferentialCheck {
    private DifferentialCheck() {}

    /** Workgroups of a compute dispatch in the check. */
    public static final int GROUPS = 2;

    /**
     * Null when all {@code sets} input sets agree; otherwise what differs, naming the input set
     * and the comparison. Compilation errors propagate as they would from {@link MachineCompiler}.
     */
    public static String check(Shader shader, String passes, int sets) {
        Outcome o = run(shader, passes, sets);
        return o.difference();
    }

    /**
     * What a check found: the first disagreement (or null), how many input sets were compared,
     * and how many were skipped because the reference failed on them, with the first reason.
     */
    public record Outcome(
            String difference, int sets, int compared, int skipped, String firstSkip, long simulatedCycles) {
        public Outcome(String difference, int sets, int compared, int skipped, String firstSkip) {
            this(difference, sets, compared, skipped, firstSkip, -1);
        }

        /** "16 of 16 input sets compared", or with the skipped ones and why the first was. */
        public String summary() {
            String s = compared + " of " + sets + " input sets compared";
            return skipped == 0
                    ? s
                    : s + " (" + skipped + " skipped, the reference failing or reading open NaN bits on them; "
                            + firstSkip + ")";
        }

        /** Fewer than half the input sets compared: the check says little. */
        public boolean weak() {
            return compared * 2 < sets;
        }
    }

    /** Runs the check; see the class comment. {@code passes}: the IR pipeline (null: the default one). */
    public static Outcome run(Shader shader, String passes, int sets) {
        return run(shader, Compiler.Options.defaults().withPipeline(passes), sets, Interpreter.DEFAULT_ITERATION_LIMIT);
    }

    /** The check with the interpreter stopping after {@code iterationLimit} loop iterations (fuzzing keeps it small). */
    public static Outcome run(Shader shader, String passes, int sets, long iterationLimit) {
        return run(shader, Compiler.Options.defaults().withPipeline(passes), sets, iterationLimit);
    }

    /**
     * The check of the shader compiled as {@code compiling} says (its IR and machine pipelines;
     * verification is always on). The outcome also holds the simulated cycles of the binary,
     * the mean over the input sets it ran on (following branches and loops; -1 when none).
     */
    public static Outcome run(Shader shader, Compiler.Options compiling, int sets, long iterationLimit) {
        String text = IrPrinter.print(shader);
        String name = "shader";
        // verified after every pass: a check is where a wrong pass should be caught where it went wrong
        Compiler.Options options = compiling.withVerify(true);
        MachineCompiler.Result usual =
                Compiler.compile(IrParser.parse(name, text), options).machine();
        Shader exact = IrParser.parse(name, text);
        for (Instr i : exact.entryPoint().instructions()) {
            if (i instanceof AluInstr a) {
                a.setExact(true);
                a.setFlags(AluFlags.NONE);
            }
        }
        MachineCompiler.Result strict = Compiler.compile(exact, options).machine();
        Shader original = IrParser.parse(name, text);
        int compared = 0, skipped = 0, ran = 0;
        long cycles = 0;
        String firstSkip = null;
        for (long seed = 0; seed < sets; seed++) {
            ShaderOutputs reference;
            try {
                reference = interpret(original, seed, iterationLimit);
            } catch (InterpreterException e) {
                // the shader's own behaviour on these inputs (an endless loop, a divergent barrier): nothing to compare
                skipped++;
                if (firstSkip == null) firstSkip = "input set " + seed + ": " + e.getMessage();
                continue;
            }
            Simulator.Result run = simulateRun(usual.program(), original, seed);
            ran++;
            cycles += run.cycles();
            ShaderOutputs.Comparison c =
                    interpret(usual.optimized(), seed, iterationLimit).compareUnderNanContract(run.outputs());
            if (c.kind() == ShaderOutputs.Comparison.Kind.BROKEN) {
                return new Outcome(
                        "input set " + seed + ": the binary disagrees with the IR it was selected from: " + c.detail(),
                        sets,
                        compared,
                        skipped,
                        firstSkip);
            }
            ShaderOutputs.Comparison strictly =
                    reference.compareUnderNanContract(simulate(strict.program(), original, seed));
            if (strictly.kind() == ShaderOutputs.Comparison.Kind.BROKEN) {
                return new Outcome(
                        "input set " + seed
                                + ": compiled with no inexact rule, the binary disagrees with the unoptimized IR: "
                                + strictly.detail(),
                        sets,
                        compared,
                        skipped,
                        firstSkip);
            }
            if (c.kind() == ShaderOutputs.Comparison.Kind.UNDECIDED
                    || strictly.kind() == ShaderOutputs.Comparison.Kind.UNDECIDED) {
                skipped++;
                if (firstSkip == null)
                    firstSkip = "input set " + seed + ": " + (c.detail() != null ? c.detail() : strictly.detail());
                continue;
            }
            compared++;
        }
        String none = sets > 0 && compared == 0
                ? "no input set was compared: the unoptimized shader fails on every one (" + firstSkip + ")"
                : null;
        return new Outcome(none, sets, compared, skipped, firstSkip, ran == 0 ? -1 : Math.round((double) cycles / ran));
    }

    /**
     * {@code shader} compiled with no inexact rule (every ALU instruction exact, so the binary
     * must match the IR bit for bit under the NaN contract), as a function from inputs and a
     * compute dispatch's workgroup count (unused by other stages) to the simulator's outputs: the
     * binary another oracle (the Vulkan one) can hand its own input sets to.
     *
     * @throws RuntimeException (a compile error) when the shader does not compile
     */
    public static java.util.function.BiFunction<ShaderInputs, Integer, ShaderOutputs> binary(Shader shader) {
        String text = IrPrinter.print(shader);
        Shader exact = IrParser.parse("shader", text);
        for (Instr i : exact.entryPoint().instructions()) {
            if (i instanceof AluInstr a) {
                a.setExact(true);
                a.setFlags(AluFlags.NONE);
            }
        }
        Program p = Compiler.compile(exact, Compiler.Options.defaults().withVerify(true))
                .machine()
                .program();
        return (in, groups) -> {
            Simulator sim = new Simulator(p);
            return p.shader().stage() == Stage.COMPUTE
                    ? sim.dispatch(in, groups, 1, 1).outputs()
                    : sim.run(in).outputs();
        };
    }

    /** The interpreter's outputs on input set {@code seed} (random inputs drawn from the shader's declarations). */
    public static ShaderOutputs interpret(Shader s, long seed) {
        return interpret(s, seed, Interpreter.DEFAULT_ITERATION_LIMIT);
    }

    static ShaderOutputs interpret(Shader s, long seed, long iterationLimit) {
        ShaderInputs in = RandomProgramGenerator.randomInputs(s, seed);
        Interpreter it = new Interpreter(s, iterationLimit).trackNans();
        return s.stage() == Stage.COMPUTE ? it.dispatch(in, GROUPS, 1, 1) : it.run(in);
    }

    /** The simulator's outputs on input set {@code seed} of {@code declarations}. */
    public static ShaderOutputs simulate(Program p, Shader declarations, long seed) {
        return simulateRun(p, declarations, seed).outputs();
    }

    /** The simulator's whole run on input set {@code seed}: outputs, cycles, stalls. */
    static Simulator.Result simulateRun(Program p, Shader declarations, long seed) {
        ShaderInputs in = RandomProgramGenerator.randomInputs(declarations, seed);
        Simulator sim = new Simulator(p);
        return p.shader().stage() == Stage.COMPUTE ? sim.dispatch(in, GROUPS, 1, 1) : sim.run(in);
    }
}
