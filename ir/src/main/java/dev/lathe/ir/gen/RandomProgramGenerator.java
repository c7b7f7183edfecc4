package dev.lathe.ir.gen;

import dev.lathe.ir.AluOperand;
import dev.lathe.ir.BaseType;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.IrBuilder;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.Swizzled;
import dev.lathe.ir.TextureDim;
import dev.lathe.ir.Value;
import dev.lathe.ir.VarType;
import dev.lathe.ir.Variable;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.Texture;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Seeded random programs for property and differential tests and for benchmarks.
 *
 * <p>A program is valid by construction and always terminates: loops count an induction
 * variable up to a small constant bound (a break at the top of the header, the increment before
 * any continue). It mixes every op the options allow, vectors read through random swizzles,
 * {@code if}s whose merge phis combine both sides, loops with carried values, nested control
 * flow, local variables, and several bit sizes. Before the end, every value nothing reads yet is
 * folded into the outputs (fragment) or the output buffer (compute), so each computed value can
 * change what the program produces.
 *
 * <p>The same seed and options give the same program on every JVM.
 */
public final class RandomProgramGenerator {

    /** What to generate. */
    public record Options(
            Stage stage,
            int targetInstructions,
            int maxDepth,
            boolean controlFlow,
            boolean loops,
            boolean vectors,
            boolean locals,
            boolean wideSizes,
            boolean jumps,
            boolean returns,
            Set<Op> randomOps,
            int window,
            boolean compoundConditions) {

        public Options(
                Stage stage,
                int targetInstructions,
                int maxDepth,
                boolean controlFlow,
                boolean loops,
                boolean vectors,
                boolean locals,
                boolean wideSizes,
                boolean jumps,
                boolean returns) {
            this(
                    stage,
                    targetInstructions,
                    maxDepth,
                    controlFlow,
                    loops,
                    vectors,
                    locals,
                    wideSizes,
                    jumps,
                    returns,
                    null,
                    0,
                    true);
        }

        /**
         * Whether some branch conditions combine two comparisons with iand or ior (and now and
         * then inot), as GLSL's {@code &&}, {@code ||} and {@code !} compile. They are drawn from
         * a random stream of their own and added to the program, so the rest of a seed's
         * program is the same with them or without.
         */
        public Options withCompoundConditions(boolean on) {
            return new Options(
                    stage,
                    targetInstructions,
                    maxDepth,
                    controlFlow,
                    loops,
                    vectors,
                    locals,
                    wideSizes,
                    jumps,
                    returns,
                    randomOps,
                    window,
                    on);
        }

        /**
         * Operands only from the last {@code n} values made (0: from all), so values die soon and
         * a large program stays within a register file (CompileBench compares both: without a
         * window MaxLive grows with the program and register allocation spills).
         */
        public Options withWindow(int n) {
            return new Options(
                    stage,
                    targetInstructions,
                    maxDepth,
                    controlFlow,
                    loops,
                    vectors,
                    locals,
                    wideSizes,
                    jumps,
                    returns,
                    randomOps,
                    n,
                    compoundConditions);
        }

        /** Random arithmetic only from these ops (the program's scaffolding still uses {@link #STRUCTURAL_OPS}). */
        public Options withRandomOps(Set<Op> ops) {
            return new Options(
                    stage,
                    targetInstructions,
                    maxDepth,
                    controlFlow,
                    loops,
                    vectors,
                    locals,
                    wideSizes,
                    jumps,
                    returns,
                    Set.copyOf(ops),
                    window,
                    compoundConditions);
        }

        /** A fragment shader of about 60 instructions using every feature. */
        public static Options standard() {
            return new Options(Stage.FRAGMENT, 60, 3, true, true, true, true, true, true, true);
        }

        /**
         * The mix the differential tests draw from, by seed: the standard fragment shader, a
         * compute shader, 32-bit-only code of 100 instructions, and small programs of 40.
         */
        public static Options mixed(long seed) {
            Options o = standard();
            return switch ((int) Math.floorMod(seed, 4L)) {
                case 0 -> o;
                case 1 -> o.withStage(Stage.COMPUTE);
                case 2 -> o.withWideSizes(false).withTargetInstructions(100);
                default -> o.withTargetInstructions(40);
            };
        }

        /** Straight-line 32-bit scalar code only. */
        public static Options straightLine(int instructions) {
            return new Options(Stage.FRAGMENT, instructions, 0, false, false, false, false, false, false, false);
        }

        /**
         * A large function for benchmarks: every feature but {@code return}, which would let an
         * early constant branch make most of the program dead, and compound conditions, which
         * came later: the benchmarks keep the function their recorded figures were measured on.
         */
        public static Options large(int instructions) {
            return new Options(Stage.FRAGMENT, instructions, 3, true, true, true, true, true, true, false)
                    .withCompoundConditions(false);
        }

        public Options withStage(Stage s) {
            return new Options(
                    s,
                    targetInstructions,
                    maxDepth,
                    controlFlow,
                    loops,
                    vectors,
                    locals,
                    wideSizes,
                    jumps,
                    returns,
                    randomOps,
                    window,
                    compoundConditions);
        }

        public Options withTargetInstructions(int n) {
            return new Options(
                    stage,
                    n,
                    maxDepth,
                    controlFlow,
                    loops,
                    vectors,
                    locals,
                    wideSizes,
                    jumps,
                    returns,
                    randomOps,
                    window,
                    compoundConditions);
        }

        public Options withLocals(boolean on) {
            return new Options(
                    stage,
                    targetInstructions,
                    maxDepth,
                    controlFlow,
                    loops,
                    vectors,
                    on,
                    wideSizes,
                    jumps,
                    returns,
                    randomOps,
                    window,
                    compoundConditions);
        }

        public Options withWideSizes(boolean on) {
            return new Options(
                    stage,
                    targetInstructions,
                    maxDepth,
                    controlFlow,
                    loops,
                    vectors,
                    locals,
                    on,
                    jumps,
                    returns,
                    randomOps,
                    window,
                    compoundConditions);
        }
    }

    /** The main stream; {@link #compound} swaps in {@link #compoundRnd} for a while. */
    private SplittableRandom rnd;

    private final SplittableRandom compoundRnd;
    private final Options opt;
    private final List<Op> ops = new ArrayList<>();
    private final List<Value> pool = new ArrayList<>();
    private final List<Variable> localVars = new ArrayList<>();
    private Shader shader;
    private Function fn;
    private IrBuilder b;
    private int budget;
    /** Whether the innermost loop counts its iterations, so a continue cannot spin forever. */
    private boolean continueAllowed;
    /**
     * The blocks that continue the innermost counted loop. The generator tracks edges itself:
     * asking the function for predecessors after every construct would recompute the whole CFG
     * each time, making large programs quadratic to build.
     */
    private List<Block> continues = new ArrayList<>();

    private RandomProgramGenerator(long seed, Options opt) {
        this.rnd = new SplittableRandom(seed);
        this.compoundRnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
        this.opt = opt;
        for (Op op : Op.values()) {
            if (usable(op)) ops.add(op);
        }
    }

    /** A random valid shader for {@code seed}. */
    public static Shader generate(long seed, Options opt) {
        return new RandomProgramGenerator(seed, opt).build();
    }

    /** A standard random shader for {@code seed}. */
    public static Shader generate(long seed) {
        return generate(seed, Options.standard());
    }

    private boolean sizeEnabled(int bits) {
        return bits == 1 || bits == 32 || (opt.wideSizes() && (bits == 8 || bits == 16 || bits == 64));
    }

    /**
     * The ops the generator uses besides random arithmetic: loop counters, conditions, locals,
     * compute addressing and folding values into the outputs.
     */
    public static final Set<Op> STRUCTURAL_OPS = Set.of(
            Op.UGE,
            Op.IADD,
            Op.IXOR,
            Op.FADD,
            Op.IMUL,
            Op.FMUL,
            Op.FLT,
            Op.FGE,
            Op.ILT,
            Op.ULT,
            Op.IEQ,
            Op.INE,
            Op.FEQ,
            Op.MOV,
            Op.B2I32,
            Op.U2U32,
            Op.UNPACK_64_2X32_SPLIT_X,
            Op.UNPACK_64_2X32_SPLIT_Y,
            Op.VEC2,
            Op.VEC4,
            Op.ISHL,
            Op.UMOD);

    private boolean usable(Op op) {
        if (op == Op.VEC8 || op == Op.VEC16) return false;
        if (opt.randomOps() != null && !opt.randomOps().contains(op)) return false;
        if (!opt.vectors() && op.isHorizontal()) return false;
        List<Integer> sizes = unsizedChoices(op);
        if (op.hasUnsizedOperands() && sizes.isEmpty()) return false;
        if (op.output().isSized() && !sizeEnabled(op.output().bitSize())) return false;
        for (int i = 0; i < op.numInputs(); i++) {
            if (op.input(i).isSized() && !sizeEnabled(op.input(i).bitSize())) return false;
        }
        return true;
    }

    private List<Integer> unsizedChoices(Op op) {
        List<Integer> out = new ArrayList<>();
        for (int s : op.legalBitSizeList()) {
            if (sizeEnabled(s)) out.add(s);
        }
        return out;
    }

    // ---- shader skeleton ----------------------------------------------------------------------

    private Shader build() {
        shader = new Shader(opt.stage());
        List<Variable> outputs = new ArrayList<>();
        Variable outBuf = null;
        if (opt.stage() == Stage.COMPUTE) {
            shader.setWorkgroupSize(1 + rnd.nextInt(4), 1 + rnd.nextInt(2), 1);
            shader.addVariable(Variable.buffer("src", VarType.u32(1), 0));
            outBuf = shader.addVariable(Variable.buffer("dst", VarType.u32(1), 1));
        } else {
            shader.addVariable(Variable.input("in0", VarType.f32(4), 0, false));
            shader.addVariable(Variable.input("in1", VarType.i32(2), 1, true));
            outputs.add(shader.addVariable(Variable.output("out0", VarType.f32(4), 0)));
            outputs.add(shader.addVariable(Variable.output("out1", VarType.u32(2), 1)));
        }
        shader.addVariable(Variable.uniform("u0", VarType.f32(4), 0, 0));
        shader.addVariable(Variable.uniform("u1", VarType.u32(1), 4, 1));
        fn = shader.addFunction("main");
        b = new IrBuilder(fn);
        if (opt.locals()) {
            localVars.add(fn.addLocal(Variable.local("t0", VarType.f32(1), 0)));
            if (opt.vectors()) localVars.add(fn.addLocal(Variable.local("t1", VarType.u32(2), 0)));
            localVars.add(fn.addLocal(Variable.local("arr", VarType.u32(1), 4)));
        }
        budget = opt.targetInstructions();
        seedValues();
        body(0, 0);
        finish(outputs, outBuf);
        return shader;
    }

    private void seedValues() {
        if (opt.stage() == Stage.COMPUTE) {
            Value id = b.sysval(Intrinsic.LOAD_GLOBAL_INVOCATION_ID);
            pool.add(id);
            Value x = b.channel(id, 0);
            Value off = b.alu(Op.ISHL, x, b.i32(2));
            pool.add(b.loadBuffer(shader.variable("src"), off, 1, 32));
            pool.add(b.loadBuffer(shader.variable("src"), b.alu(Op.IADD, off, b.i32(4)), 1, 32));
        } else {
            pool.add(b.loadInput(shader.variable("in0")));
            pool.add(b.loadInput(shader.variable("in1")));
        }
        pool.add(b.loadUniform(shader.variable("u0")));
        pool.add(b.loadUniform(shader.variable("u1"), b.i32(rnd.nextInt(5))));
    }

    // ---- bodies -------------------------------------------------------------------------------

    /**
     * Emits a few constructs (nested levels), or everything that is left of the budget (the top
     * level); loopDepth > 0 inside loops.
     */
    private void body(int depth, int loopDepth) {
        int steps = depth == 0 ? Integer.MAX_VALUE : 3 + rnd.nextInt(6);
        for (int s = 0; s < steps && budget > 0; s++) {
            int pick = rnd.nextInt(100);
            if (opt.controlFlow() && depth < opt.maxDepth() && pick < 12) {
                ifElse(depth, loopDepth);
            } else if (opt.loops() && depth < opt.maxDepth() && pick < 18) {
                loop(depth, loopDepth);
            } else if (opt.loops() && depth < opt.maxDepth() && pick < 20) {
                onceLoop(depth, loopDepth);
            } else if (opt.locals() && !localVars.isEmpty() && pick < 28) {
                localAccess();
            } else {
                int n = 1 + rnd.nextInt(4);
                for (int k = 0; k < n && budget > 0; k++) alu();
            }
        }
    }

    private void alu() {
        Op op = ops.get(rnd.nextInt(ops.size()));
        List<Integer> sizes = unsizedChoices(op);
        int n = sizes.isEmpty() ? 0 : sizes.get(rnd.nextInt(sizes.size()));
        int comps = op.isHorizontal()
                ? op.output().components()
                : (opt.vectors() && rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(4) : 1);
        AluOperand[] srcs = new AluOperand[op.numInputs()];
        for (int i = 0; i < srcs.length; i++) {
            int bits = op.inputBits(i, n);
            int read = op.inputComponents(i, comps);
            srcs[i] = operand(bits, read);
        }
        Value v = b.aluInstr(op, comps, op.outputBits(n), srcs).def();
        pool.add(v);
        budget--;
    }

    /** A source of {@code bits} bits reading {@code read} components: a pool value or a new constant. */
    private AluOperand operand(int bits, int read) {
        Value v = rnd.nextInt(6) == 0 ? null : pick(bits);
        if (v == null) {
            v = constant(bits, 1 + rnd.nextInt(opt.vectors() ? 4 : 1));
        }
        byte[] swz = new byte[read];
        for (int c = 0; c < read; c++) swz[c] = (byte) rnd.nextInt(v.numComponents());
        return new Swizzled(v, swz);
    }

    private Value pick(int bits) {
        int lo = opt.window() > 0 ? Math.max(0, pool.size() - opt.window()) : 0;
        int n = pool.size() - lo;
        int start = rnd.nextInt(Math.max(1, n));
        for (int k = 0; k < n; k++) {
            Value v = pool.get(lo + (start + k) % n);
            if (v.bitSize() == bits) return v;
        }
        return null;
    }

    private Value constant(int bits, int comps) {
        long[] vals = new long[comps];
        for (int i = 0; i < comps; i++) vals[i] = interesting(bits);
        budget--;
        return b.constant(bits, vals);
    }

    private static final double[] FLOATS = {
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        3.0,
        0.25,
        10.0,
        100.0,
        1e-3,
        65504.0,
        1e6,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        Double.NaN,
        1.5,
        -2.75,
        0.1
    };
    private static final long[] INTS = {0, 1, 2, 3, -1, -2, 4, 7, 8, 15, 16, 31, 32, 33, 63, 64, 100, 255, 256, 1000};

    private long interesting(int bits) {
        if (bits == 1) return rnd.nextInt(2);
        int kind = rnd.nextInt(10);
        if (kind < 4 && bits >= 16) return FloatBits.fromDouble(FLOATS[rnd.nextInt(FLOATS.length)], bits);
        if (kind < 8) return INTS[rnd.nextInt(INTS.length)] & Bits.mask(bits);
        return rnd.nextLong() & Bits.mask(bits);
    }

    /**
     * A vec1 1-bit value: a comparison of pool values, a component of a boolean, or now and
     * then a constant (so that folding and dead_cf have branches to remove).
     */
    private Value condition() {
        if (rnd.nextInt(8) == 0) {
            budget--;
            return b.bool(rnd.nextBoolean());
        }
        Value bool = rnd.nextInt(3) == 0 ? pick(1) : null;
        if (bool != null) {
            budget--;
            return b.channel(bool, rnd.nextInt(bool.numComponents()));
        }
        budget--;
        Value cmp = comparison();
        return opt.compoundConditions() && compoundRnd.nextInt(3) == 0 ? compound(cmp) : cmp;
    }

    private Value comparison() {
        Op cmp = new Op[] {Op.FLT, Op.FGE, Op.ILT, Op.ULT, Op.IEQ, Op.INE, Op.FEQ}[rnd.nextInt(7)];
        return b.aluInstr(cmp, 1, 1, operand(32, 1), operand(32, 1)).def();
    }

    /**
     * {@code first} combined with another comparison by iand or ior, either of them perhaps
     * under an inot. Everything is drawn from the compound stream and nothing joins the pool or
     * counts against the budget, so the main stream and the rest of the program do not change.
     */
    private Value compound(Value first) {
        SplittableRandom main = rnd;
        int savedBudget = budget;
        rnd = compoundRnd;
        try {
            Value second = comparison();
            if (rnd.nextInt(4) == 0) second = b.alu(Op.INOT, second);
            Op op = rnd.nextBoolean() ? Op.IAND : Op.IOR;
            Value both = rnd.nextBoolean() ? b.alu(op, first, second) : b.alu(op, second, first);
            return rnd.nextInt(4) == 0 ? b.alu(Op.INOT, both) : both;
        } finally {
            rnd = main;
            budget = savedBudget;
        }
    }

    private void ifElse(int depth, int loopDepth) {
        Value cond = condition();
        int mark = pool.size();
        // A third of the ifs are small diamonds of plain arithmetic (what opt_if flattens).
        boolean small = rnd.nextInt(3) == 0;
        IfNode in = b.pushIf(cond);
        boolean thenJumps = small ? smallArm() : branch(depth, loopDepth);
        List<Value> thenVals = new ArrayList<>(pool.subList(mark, pool.size()));
        Block thenEnd = b.block();
        truncate(mark);
        b.pushElse(in);
        boolean elseJumps = small ? smallArm() : !thenJumps && branch(depth, loopDepth);
        List<Value> elseVals = new ArrayList<>(pool.subList(mark, pool.size()));
        Block elseEnd = b.block();
        truncate(mark);
        b.popIf(in);
        // Merge phis: one source per side that falls through into the merge block.
        List<Block> preds = new ArrayList<>(2);
        if (!thenJumps) preds.add(thenEnd);
        if (!elseJumps) preds.add(elseEnd);
        int phis = preds.isEmpty() ? 0 : rnd.nextInt(3);
        for (int k = 0; k < phis; k++) {
            Value t = thenVals.isEmpty() ? null : thenVals.get(rnd.nextInt(thenVals.size()));
            int bits = t != null ? t.bitSize() : 32;
            int comps = t != null ? t.numComponents() : 1;
            Value e = matching(elseVals, bits, comps);
            PhiInstr phi = b.phi(comps, bits);
            for (Block p : preds) {
                Value src = p == thenEnd
                        ? (t != null ? t : outerMatching(bits, comps, mark))
                        : p == elseEnd
                                ? (e != null ? e : outerMatching(bits, comps, mark))
                                : outerMatching(bits, comps, mark);
                phi.addSrc(p, src);
            }
            pool.add(phi.def());
        }
    }

    /**
     * Fills one side of an if; inside loops it may end with break or continue, elsewhere
     * rarely with return. Returns whether it ended with a jump.
     */
    private boolean branch(int depth, int loopDepth) {
        body(depth + 1, loopDepth);
        if (!opt.jumps()) return false;
        int r = rnd.nextInt(100);
        if (loopDepth > 0 && r < 12) {
            b.breakLoop();
            return true;
        }
        if (loopDepth > 0 && continueAllowed && r < 22) {
            continues.add(b.block());
            b.continueLoop();
            return true;
        }
        if (loopDepth == 0 && opt.returns() && r < 3) {
            b.ret();
            return true;
        }
        return false;
    }

    /** One to three ALU instructions (no control flow, no intrinsics); never jumps. */
    private boolean smallArm() {
        int n = 1 + rnd.nextInt(3);
        for (int k = 0; k < n; k++) alu();
        return false;
    }

    private Value matching(List<Value> vals, int bits, int comps) {
        for (Value v : vals) {
            if (v.bitSize() == bits && v.numComponents() == comps) return v;
        }
        return null;
    }

    /** A value of this shape from outside the current if (creating a constant if needed). */
    private Value outerMatching(int bits, int comps, int mark) {
        Value v = matching(pool.subList(0, mark), bits, comps);
        if (v != null) return v;
        // A constant in the entry block dominates both sides of every if.
        long[] vals = new long[comps];
        for (int i = 0; i < comps; i++) vals[i] = interesting(bits);
        return new IrBuilder(fn).atEnd(fn.entryBlock()).constant(bits, vals);
    }

    private void truncate(int mark) {
        while (pool.size() > mark) pool.remove(pool.size() - 1);
    }

    private void loop(int depth, int loopDepth) {
        Value zero = b.i32(0);
        Value bound = b.i32(rnd.nextInt(5));
        Value step = b.i32(1);
        Value carriedInit = pick(32);
        if (carriedInit == null) carriedInit = constant(32, 1);
        int cc = carriedInit.numComponents();
        budget -= 3;
        Block preheader = b.block();
        LoopNode loop = b.pushLoop();
        Block header = b.block();
        PhiInstr i = b.phi(1, 32);
        PhiInstr acc = b.phi(cc, 32);
        Value done = b.alu(Op.UGE, i.def(), bound);
        IfNode exit = b.pushIf(done);
        b.breakLoop();
        b.pushElse(exit);
        b.popIf(exit);
        Value next = b.alu(Op.IADD, i.def(), step);
        Op mix = new Op[] {Op.IADD, Op.IXOR, Op.FADD, Op.IMUL, Op.FMUL}[rnd.nextInt(5)];
        Value early = b.alu(mix, acc.def(), next);
        budget -= 4;
        int mark = pool.size();
        pool.add(i.def());
        pool.add(acc.def());
        pool.add(early);
        boolean saved = continueAllowed;
        List<Block> savedContinues = continues;
        continueAllowed = true;
        continues = new ArrayList<>();
        body(depth + 1, loopDepth + 1);
        List<Block> myContinues = continues;
        continueAllowed = saved;
        continues = savedContinues;
        Value late = b.alu(mix, early, operand(32, cc));
        budget--;
        Block latch = b.block();
        truncate(mark);
        b.popLoop(loop);
        List<Block> headerPreds = new ArrayList<>();
        headerPreds.add(preheader);
        headerPreds.addAll(myContinues);
        headerPreds.add(latch);
        for (Block p : headerPreds) {
            if (p == preheader) {
                i.addSrc(p, zero);
                acc.addSrc(p, carriedInit);
            } else {
                i.addSrc(p, next);
                acc.addSrc(p, p == latch ? late : early);
            }
        }
        // The header dominates the exit: its phis are usable after the loop.
        pool.add(i.def());
        pool.add(acc.def());
    }

    /** A loop whose body runs once: it always ends with break (dead_cf unrolls these). */
    private void onceLoop(int depth, int loopDepth) {
        int mark = pool.size();
        LoopNode loop = b.pushLoop();
        boolean saved = continueAllowed;
        continueAllowed = false;
        body(depth + 1, loopDepth + 1);
        continueAllowed = saved;
        b.breakLoop();
        truncate(mark);
        b.popLoop(loop);
    }

    private void localAccess() {
        Variable v = localVars.get(rnd.nextInt(localVars.size()));
        VarType t = v.type();
        Value index = null;
        if (v.isArray()) {
            Value raw = pick(32);
            index = raw == null
                    ? b.i32(rnd.nextInt(v.arrayLength() + 1))
                    : b.alu(Op.UMOD, b.comp(raw, 0), b.i32(v.arrayLength() + 1));
            budget--;
        }
        if (rnd.nextBoolean()) {
            Value x = b.aluInstr(Op.MOV, t.components(), t.bitSize(), operand(t.bitSize(), t.components()))
                    .def();
            if (index == null) b.storeVar(v, x);
            else b.storeVar(v, index, x);
        } else {
            pool.add(index == null ? b.loadVar(v) : b.loadVar(v, index));
        }
        budget -= 2;
    }

    // ---- outputs ------------------------------------------------------------------------------

    /** Folds every unread value into 32-bit words and writes them out. */
    private void finish(List<Variable> outputs, Variable outBuf) {
        List<Value> words = new ArrayList<>();
        // with a window, only the values still in it are folded: older unread ones are dead code
        List<Value> fold = opt.window() > 0 ? pool.subList(Math.max(0, pool.size() - opt.window()), pool.size()) : pool;
        for (Value v : fold) {
            if (v.hasUses() && rnd.nextInt(4) != 0) continue;
            for (int c = 0; c < v.numComponents(); c++) words.add(to32(v, c));
        }
        if (words.isEmpty()) words.add(b.i32(rnd.nextInt()));
        int sinks = opt.stage() == Stage.COMPUTE ? 4 : 6;
        Value[] acc = new Value[sinks];
        for (int k = 0; k < words.size(); k++) {
            int slot = k % sinks;
            acc[slot] = acc[slot] == null
                    ? words.get(k)
                    : b.alu(rnd.nextBoolean() ? Op.IXOR : Op.IADD, acc[slot], words.get(k));
        }
        for (int k = 0; k < sinks; k++) {
            if (acc[k] == null) acc[k] = b.i32(k);
        }
        if (opt.stage() == Stage.COMPUTE) {
            Value id = b.channel(b.sysval(Intrinsic.LOAD_LOCAL_INVOCATION_INDEX), 0);
            Value base = b.alu(Op.ISHL, id, b.i32(4));
            for (int k = 0; k < 4; k++) {
                b.storeBuffer(outBuf, b.alu(Op.IADD, base, b.i32(4 * k)), acc[k]);
            }
        } else {
            b.storeOutput(outputs.get(0), b.vec(acc[0], acc[1], acc[2], acc[3]));
            b.storeOutput(outputs.get(1), b.vec(acc[4], acc[5]));
        }
    }

    private Value to32(Value v, int c) {
        Swizzled s = b.comp(v, c);
        return switch (v.bitSize()) {
            case 1 -> b.alu(Op.B2I32, s);
            case 8, 16 -> b.alu(Op.U2U32, s);
            case 64 -> b.alu(Op.IXOR, b.alu(Op.UNPACK_64_2X32_SPLIT_X, s), b.alu(Op.UNPACK_64_2X32_SPLIT_Y, s));
            default -> b.alu(Op.MOV, s);
        };
    }

    // ---- inputs -------------------------------------------------------------------------------

    /** Random values for every input, uniform and buffer of {@code s} (buffers of 64 words). */
    public static ShaderInputs randomInputs(Shader s, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        ShaderInputs in = new ShaderInputs();
        // a shader that reads or writes device memory gets 256 bytes of it, and its 64-bit
        // integer inputs and uniforms mostly point into it (aligned), so pointers reach memory
        boolean device = usesDeviceMemory(s);
        for (Variable v : s.variables()) {
            switch (v.kind()) {
                case INPUT, UNIFORM -> {
                    int n = v.type().components() * Math.max(1, v.arrayLength());
                    long[] vals = new long[n];
                    boolean pointers =
                            device && v.type().bitSize() == 64 && v.type().base() != BaseType.FLOAT;
                    for (int i = 0; i < n; i++) {
                        vals[i] = pointers && r.nextInt(4) != 0
                                ? ShaderInputs.DEVICE_MEMORY_BASE + 16L * r.nextInt(16)
                                : randomValue(r, v.type());
                    }
                    in.set(v.name(), vals);
                }
                case BUFFER -> {
                    long[] words = new long[64];
                    for (int i = 0; i < words.length; i++)
                        words[i] = r.nextInt(4) == 0 ? r.nextLong() & 0xffffffffL : r.nextInt(100);
                    in.setBufferWords(v.name(), words);
                }
                case TEXTURE, IMAGE -> {
                    for (int k = 0; k < Math.max(1, v.arrayLength()); k++)
                        in.setTexture(v.elementName(k), randomTexture(r, v));
                }
                default -> {}
            }
        }
        if (device) {
            byte[] memory = new byte[256];
            for (int i = 0; i < memory.length; i++)
                memory[i] = (byte) (r.nextInt(4) == 0 ? r.nextInt() : r.nextInt(100));
            in.setDeviceMemory(memory);
        }
        return in;
    }

    /** Whether any function of the shader reads or writes device memory. */
    public static boolean usesDeviceMemory(Shader s) {
        for (Function f : s.functions()) {
            for (Instr i : f.instructions()) {
                if (i instanceof IntrinsicInstr in
                        && (in.intrinsic() == Intrinsic.LOAD_GLOBAL || in.intrinsic() == Intrinsic.STORE_GLOBAL)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A 4-texel-wide texture (4x4 in 2d, 4x4x2 in 3d, six 4x4 faces for a cube, two cubes' for a cube array); a unorm one holds values in [+0, 1], ends included. */
    private static Texture randomTexture(SplittableRandom r, Variable v) {
        int h = v.dim() == TextureDim.D1 ? 1 : 4;
        int d = switch (v.dim()) {
            case D3, D2_ARRAY -> 2;
            case CUBE -> 6;
            case CUBE_ARRAY -> 12;
            default -> 1;
        };
        long[] texels = new long[4 * h * d * 4];
        for (int i = 0; i < texels.length; i++) {
            texels[i] = !v.isUnorm()
                    ? randomValue(r, v.type())
                    : FloatBits.fromDouble(
                            switch (r.nextInt(4)) {
                                case 0 -> 0.0;
                                case 1 -> 1.0;
                                default -> r.nextDouble();
                            },
                            32);
        }
        return new Texture(4, h, d, texels);
    }

    private static long randomValue(SplittableRandom r, VarType t) {
        int bits = t.bitSize();
        return switch (t.base()) {
            case FLOAT ->
                r.nextInt(4) == 0
                        ? r.nextLong() & Bits.mask(bits)
                        : FloatBits.fromDouble((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(5) - 1), bits);
            case BOOL -> r.nextInt(2);
            default -> r.nextInt(3) == 0 ? r.nextLong() & Bits.mask(bits) : r.nextInt(200) - 50 & Bits.mask(bits);
        };
    }
}
