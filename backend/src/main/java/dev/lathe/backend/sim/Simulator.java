package dev.lathe.backend.sim;

import dev.lathe.backend.isa.Asm;
import dev.lathe.backend.isa.Encoding;
import dev.lathe.backend.isa.Latency;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Operand;
import dev.lathe.backend.isa.Semantics;
import dev.lathe.backend.isa.SysVal;
import dev.lathe.backend.program.Program;
import dev.lathe.ir.Stage;
import dev.lathe.ir.TextureDim;
import dev.lathe.ir.Variable;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes a program for one invocation (or every invocation of a compute dispatch, sharing
 * buffers, each workgroup in lockstep between barriers with its own workgroup memory, on the
 * interpreter's schedule: {@link Interpreter#dispatchLockstep}), taking the IR interpreter's
 * inputs and giving its kind of outputs, so the two can be compared bit for bit.
 *
 * <p>What the machine does to memory, textures and images is its own, written from
 * {@code backend/ISA.md} ({@link Memory}, {@link TextureUnit}), so that a mistake in the
 * interpreter's semantics shows as a disagreement instead of being copied. Shared with the
 * interpreter are only the harness's conventions that make the two comparable: the schedule of
 * a dispatch, the layout of the run's memory (buffers as given, a storage image's texels as four
 * little-endian words, {@link Interpreter#initialMemory}), and the image formats' rounding
 * ({@code ImageFormat}, which ISA.md names as the descriptor's).
 *
 * <p>It models time in cycles: an instruction issues one repetition per cycle, {@code (nopN)}
 * adds N idle cycles, {@code (ss)}/{@code (sy)} stall until the outstanding SFU or load results
 * are written (they complete {@link Latency#SFU_CYCLES} and {@link Latency#LOAD_CYCLES} cycles
 * after issue). Every register read and write is checked against the latency rules
 * ({@link Latency}, which the legalizer obeys); a violation is a {@link SimulationException} naming the pc, never a
 * silently wrong value. Reading a register nothing wrote is an error too.
 */
public final class Simulator {
    public static final long DEFAULT_STEP_LIMIT = 50_000_000L;
    private static final long LONG_AGO = Long.MIN_VALUE / 4;

    private final Program program;
    private long stepLimit = DEFAULT_STEP_LIMIT;

    /**
     * A simulator of {@code program}, whose every instruction must be one the encoding takes
     * (registers, operand kinds, the operand rules): the machine runs only what it can decode.
     *
     * @throws SimulationException naming the first instruction that is not
     */
    public Simulator(Program program) {
        this.program = program;
        List<MInstr> code = program.code();
        for (int pc = 0; pc < code.size(); pc++) {
            String problem = Encoding.validate(code.get(pc));
            if (problem != null)
                throw new SimulationException("pc " + pc + " (" + Asm.print(code.get(pc)) + "): " + problem);
        }
        for (int k = 0; k < program.preamble().size(); k++) {
            MInstr i = program.preamble().get(k);
            String problem = Program.checkPreamble(i, k == program.preamble().size() - 1);
            if (problem == null) problem = Encoding.validate(i);
            if (problem != null)
                throw new SimulationException("preamble pc " + k + " (" + Asm.print(i) + "): " + problem);
        }
        for (MInstr i : code) {
            String problem = Program.checkCode(i);
            if (problem != null) throw new SimulationException(Asm.print(i) + ": " + problem);
        }
        String together = Program.checkPreloads(program.preloads());
        if (together != null) throw new SimulationException(together);
        for (MInstr i : program.preloads()) {
            String problem = Program.checkPreload(i, program.shader().stage());
            if (problem == null) problem = Encoding.validate(i);
            if (problem != null) throw new SimulationException("preload " + Asm.print(i) + ": " + problem);
        }
    }

    public Simulator stepLimit(long limit) {
        this.stepLimit = limit;
        return this;
    }

    /** What a run gives: the outputs, and the model's cycles and stalls (summed over a dispatch). */
    public record Result(ShaderOutputs outputs, long cycles, long sstall, long systall, long instructions) {}

    public Result run(ShaderInputs in) {
        Map<Variable, byte[]> buffers = initialBuffers(in);
        Invocation inv = new Invocation(in, buffers, new byte[program.sharedBytes()]);
        // a lone invocation is a workgroup of one: its barriers wait for nobody
        while (inv.resume()) {}
        return new Result(inv.outputs(), inv.time, inv.sstall, inv.systall, inv.steps);
    }

    /** Every invocation of {@code gx × gy × gz} workgroups, in the interpreter's order; outputs of the last. */
    public Result dispatch(ShaderInputs in, int gx, int gy, int gz) {
        Map<Variable, byte[]> buffers = initialBuffers(in);
        List<Invocation> all = new ArrayList<>();
        byte[][] shared = new byte[1][];
        Interpreter.dispatchLockstep(
                in,
                program.shader().workgroupSize(),
                gx,
                gy,
                gz,
                () -> shared[0] = new byte[program.sharedBytes()],
                () -> {
                    Invocation inv = new Invocation(in, buffers, shared[0]);
                    all.add(inv);
                    return inv;
                },
                SimulationException::new);
        long[] totals = new long[4];
        for (Invocation inv : all) {
            totals[0] += inv.time;
            totals[1] += inv.sstall;
            totals[2] += inv.systall;
            totals[3] += inv.steps;
        }
        return new Result(all.get(all.size() - 1).outputs(), totals[0], totals[1], totals[2], totals[3]);
    }

    private Map<Variable, byte[]> initialBuffers(ShaderInputs in) {
        return Interpreter.initialMemory(program.shader(), in);
    }

    /** The state of one invocation. */
    private final class Invocation implements Interpreter.Resumable {
        final ShaderInputs in;
        final int[] localId, workgroupId, numWorkgroups;
        final Map<Variable, byte[]> buffers;
        final byte[] shared;
        boolean ended;
        final long[] regs = new long[Operand.NUM_REGS];
        final boolean[] written = new boolean[Operand.NUM_REGS];
        final long[] aluWrite = new long[Operand.NUM_REGS];
        final int[] writerPc = new int[Operand.NUM_REGS];
        final long[] ssDone = new long[Operand.NUM_REGS];
        final long[] syDone = new long[Operand.NUM_REGS];
        final List<Integer> ssPending = new ArrayList<>(), syPending = new ArrayList<>();
        final long[] consts;
        final byte[] local, priv;
        final Map<Integer, long[]> outputs = new LinkedHashMap<>();
        boolean pred, predWritten;
        /** The address register, and when and by whom it was written (never: {@link #LONG_AGO}). */
        int a0;

        long a0Write = LONG_AGO;
        int a0WriterPc = -1;
        long predWrite = LONG_AGO;
        int predWriterPc;
        long time, sstall, systall, steps;
        boolean discarded;
        int pc;
        /** The instruction executing: whose pipeline reads its registers ({@link Latency#aluDelay}). */
        MInstr current;

        Invocation(ShaderInputs in, Map<Variable, byte[]> buffers, byte[] shared) {
            this.in = in;
            this.localId = in.localInvocationId();
            this.workgroupId = in.workgroupId();
            this.numWorkgroups = in.numWorkgroups();
            this.buffers = buffers;
            this.shared = shared;
            Arrays.fill(aluWrite, LONG_AGO);
            Arrays.fill(ssDone, -1);
            Arrays.fill(syDone, -1);
            consts = new long[program.constantScalars()];
            local = new byte[program.localBytes()];
            priv = new byte[program.privateBytes()];
            for (Variable v : program.shader().variables(Variable.Kind.UNIFORM)) {
                Integer base = program.slots().get(v.name());
                long[] val = in.value(v.name());
                if (base == null || val == null) continue;
                int at = base;
                for (long x : val) {
                    if (v.type().bitSize() == 64) {
                        put(at++, x & 0xffffffffL);
                        put(at++, x >>> 32);
                    } else {
                        put(at++, x & Bits.mask(v.type().bitSize()));
                    }
                }
            }
            program.constants().forEach(this::put);
            for (Variable v : program.shader().variables(Variable.Kind.BUFFER)) {
                Integer at = program.slots().get(v.name() + ".size");
                if (at != null) put(at, buffers.get(v).length & 0xffffffffL);
            }
            for (Variable v : program.shader().variables(Variable.Kind.IMAGE)) {
                Integer at = program.slots().get(v.name() + ".size");
                long[] size = TextureUnit.size(texture(v, 0), v.dim().coordinates());
                if (at != null) for (int c = 0; c < size.length; c++) put(at + c, size[c]);
            }
            for (Variable v : program.shader().variables(Variable.Kind.OUTPUT)) {
                Integer slot = program.slots().get(v.name());
                if (slot != null) outputs.put(slot, new long[v.type().components()]);
            }
            if (running == program.code()) preload();
        }

        /**
         * The code running: the preamble, then the shader. The preamble hands nothing over but
         * the constants it stores: the shader starts with every register unwritten, its
         * preloads in place, at time 0 (the preamble's cycles are counted apart).
         */
        List<MInstr> running = program.preamble().isEmpty() ? program.code() : program.preamble();

        long preambleTime;

        private void startShader() {
            preambleTime = time;
            running = program.code();
            time = 0;
            Arrays.fill(written, false);
            Arrays.fill(aluWrite, LONG_AGO);
            Arrays.fill(ssDone, -1);
            Arrays.fill(syDone, -1);
            ssPending.clear();
            syPending.clear();
            a0Write = LONG_AGO;
            preload();
        }

        /**
         * The preloads, done before the first instruction: their results are in place, ready, at
         * time 0 — but texture prefetches, which the hardware starts then and which are still
         * outstanding: the code waits for them with (sy) like for any texture fetch.
         */
        private void preload() {
            pc = -1;
            for (MInstr i : program.preloads()) {
                current = i;
                if (i.isPrefetch()) continue;
                if (i.op() == MOp.LDLV) memory(i);
                else alu(i, 0);
            }
            Arrays.fill(aluWrite, LONG_AGO);
            Arrays.fill(syDone, -1);
            syPending.clear();
            for (MInstr i : program.preloads()) {
                current = i;
                if (i.isPrefetch()) texture(i);
            }
            pc = 0;
            current = null;
        }

        /**
         * The outputs from the registers {@code end} reads: every output in declaration order,
         * each component one register (a 64-bit one two), checked like any read.
         */
        private void readOutputs(MInstr end) {
            List<Operand> regs = end.srcs();
            int k = 0;
            for (Variable v : program.shader().variables(Variable.Kind.OUTPUT)) {
                Integer slot = program.slots().get(v.name());
                long[] out = new long[v.type().components()];
                int bits = v.type().bitSize();
                for (int c = 0; c < out.length; c++) {
                    int units = bits == 64 ? 2 : 1;
                    if (k + units > regs.size())
                        throw error("end reads " + regs.size() + " registers; the outputs need more");
                    long value = readReg(regs.get(k++).index());
                    if (units == 2) value |= readReg(regs.get(k++).index()) << 32;
                    out[c] = value & Bits.mask(bits);
                }
                if (slot != null) outputs.put(slot, out);
            }
            if (k != regs.size()) throw error("end reads " + regs.size() + " registers; the outputs take " + k);
        }

        private void put(int index, long v) {
            if (index >= 0 && index < consts.length) consts[index] = v;
        }

        ShaderOutputs outputs() {
            Map<String, long[]> outs = new LinkedHashMap<>();
            for (Variable v : program.shader().variables(Variable.Kind.OUTPUT)) {
                Integer slot = program.slots().get(v.name());
                long[] val = slot == null ? null : outputs.get(slot);
                outs.put(v.name(), val == null ? new long[v.type().components()] : val.clone());
            }
            Map<String, byte[]> bufs = new LinkedHashMap<>();
            buffers.forEach((k, v) -> bufs.put(k.name(), v.clone()));
            return new ShaderOutputs(outs, bufs, discarded, 0);
        }

        SimulationException error(String what) {
            String text = pc >= 0 && pc < running.size() ? " (" + Asm.print(running.get(pc)) + ")" : "";
            return new SimulationException(
                    (running == program.code() ? "pc " : "preamble pc ") + pc + text + ": " + what);
        }

        /** Who wrote register r: its pc, or a prefetch before the start. */
        private String writer(int r) {
            return writerPc[r] < 0 ? "a texture prefetch" : "pc " + writerPc[r];
        }

        SimulationException hazard(String what) {
            return new SimulationException("hazard at " + (running == program.code() ? "pc " : "preamble pc ") + pc
                    + " (" + Asm.print(running.get(pc)) + "): " + what);
        }

        @Override
        public boolean resume() {
            if (ended) return false;
            List<MInstr> code = running;
            while (true) {
                if (pc < 0 || pc >= code.size())
                    throw error("execution left the program (pc " + pc + " of " + code.size() + ")");
                if (++steps > stepLimit)
                    throw error("more than " + stepLimit + " instructions executed; is there an endless loop?");
                MInstr i = code.get(pc);
                current = i;
                if (i.ss()) sync(ssPending, ssDone, true);
                if (i.sy()) sync(syPending, syDone, false);
                if (i.op() == MOp.NOP) {
                    time += i.rpt() + 1 + i.nop();
                    pc++;
                    continue;
                }
                int next = pc + 1;
                switch (i.op().category()) {
                    case 0 -> {
                        switch (i.op()) {
                            case END -> {
                                if (running != program.code()) {
                                    startShader();
                                    code = running;
                                    pc = 0;
                                    continue;
                                }
                                if (!i.srcs().isEmpty()) readOutputs(i);
                                ended = true;
                                return false;
                            }
                            case JUMP -> next = target(i);
                            case BR -> {
                                if (readPred() != i.invert()) next = target(i);
                            }
                            case KILL -> {
                                if (program.shader().stage() != Stage.FRAGMENT)
                                    throw error("kill outside a fragment shader");
                                if (readPred() != i.invert()) {
                                    discarded = true;
                                    ended = true;
                                    return false;
                                }
                            }
                            default -> throw error("unexpected " + i.op());
                        }
                        time++;
                    }
                    case 1, 2, 3, 4 -> {
                        for (int k = 0; k <= i.rpt(); k++) {
                            alu(i, k);
                            time++;
                        }
                    }
                    case 5 -> {
                        texture(i);
                        time++;
                    }
                    case 6 -> {
                        memory(i);
                        time++;
                    }
                    default -> { // bar: the others of the workgroup run up to it before this one goes on
                        time += 1 + i.nop();
                        pc = next;
                        return true;
                    }
                }
                time += i.nop();
                pc = next;
            }
        }

        private int target(MInstr i) {
            long t = (long) pc + i.offset();
            if (t < 0 || t >= program.code().size())
                throw error("branch to " + t + ", outside the program (0 to "
                        + (program.code().size() - 1) + ")");
            return (int) t;
        }

        private void sync(List<Integer> pending, long[] done, boolean ss) {
            long until = time;
            for (int r : pending) {
                until = Math.max(until, done[r]);
                done[r] = -1;
            }
            pending.clear();
            long stall = until - time;
            if (ss) sstall += stall;
            else systall += stall;
            time = until;
        }

        // ---- register access with the latency checks -------------------------------------------

        /** a0.x, as {@code c<a0.x + n>} reads it: written by a mova at least {@link Latency#ADDRESS_DELAY} slots before. */
        private long readA0() {
            if (a0Write == LONG_AGO) throw error("reads c<a0.x + n> before any mova wrote a0.x");
            long gap = time - a0Write;
            if (gap < Latency.ADDRESS_DELAY) {
                throw hazard("reads a0.x " + gap + " cycle" + (gap == 1 ? "" : "s") + " after the mova of pc "
                        + a0WriterPc + "; c<a0.x + n> needs " + Latency.ADDRESS_DELAY);
            }
            return a0;
        }

        /** A register read by the {@link #current} instruction, checked against its write. */
        private long readReg(int r) {
            if (r < 0 || r >= Operand.NUM_REGS) throw error("no register " + r);
            String name = Operand.scalarName('r', r);
            if (ssDone[r] >= 0)
                throw hazard("reads " + name + ", an SFU result of pc " + writerPc[r] + ", without (ss) in between");
            if (syDone[r] >= 0)
                throw hazard("reads " + name + ", a load result of " + writer(r) + ", without (sy) in between");
            if (!written[r]) throw error("reads " + name + " before anything wrote it");
            int need = Latency.aluDelay(current.op(), false);
            long gap = time - aluWrite[r];
            if (gap < need) {
                throw hazard("reads " + name + " " + gap + " cycle" + (gap == 1 ? "" : "s") + " after pc " + writerPc[r]
                        + " wrote it; "
                        + (Latency.readsLate(current.op())
                                ? "an SFU, texture or memory instruction"
                                : "an ALU instruction")
                        + " needs " + need);
            }
            return regs[r];
        }

        /** Writes a register, ready as {@code kind} results are ({@link Latency}). */
        private void writeReg(int r, long v, Latency.Kind kind) {
            if (r < 0 || r >= Operand.NUM_REGS) throw error("no register " + r);
            String name = Operand.scalarName('r', r);
            if (ssDone[r] >= 0)
                throw hazard("writes " + name + " while the SFU result of pc " + writerPc[r]
                        + " is outstanding (needs (ss))");
            if (syDone[r] >= 0)
                throw hazard("writes " + name + " while the load of " + writer(r) + " is outstanding (needs (sy))");
            regs[r] = v & 0xffffffffL;
            written[r] = true;
            writerPc[r] = pc;
            if (kind == Latency.Kind.ALU) {
                aluWrite[r] = time;
            } else {
                aluWrite[r] = LONG_AGO;
                if (kind == Latency.Kind.SFU) {
                    ssDone[r] = time + Latency.SFU_CYCLES;
                    ssPending.add(r);
                } else {
                    syDone[r] = time + Latency.LOAD_CYCLES;
                    syPending.add(r);
                }
            }
        }

        private boolean readPred() {
            if (!predWritten) throw error("reads p0.x before anything wrote it");
            int need = Latency.aluDelay(current.op(), true);
            if (time - predWrite < need) {
                throw hazard("reads p0.x " + (time - predWrite) + ((time - predWrite) == 1 ? " cycle" : " cycles")
                        + " after pc " + predWriterPc + " wrote it; needs " + need);
            }
            return pred;
        }

        /** A value of {@code bits} from registers r (and r+1 for 64 bits). */
        private long readValue(int r, int bits) {
            if (bits == 64) return readReg(r) | readReg(r + 1) << 32;
            return readReg(r) & Bits.mask(bits);
        }

        private void writeValue(int r, long v, int bits, Latency.Kind kind) {
            if (bits == 64) {
                writeReg(r, v, kind);
                writeReg(r + 1, v >>> 32, kind);
            } else {
                writeReg(r, v & Bits.mask(bits), kind);
            }
        }

        private long constValue(int c, int bits) {
            if (c < 0 || c + (bits == 64 ? 1 : 0) >= consts.length) throw error("no constant " + c);
            if (bits == 64) return consts[c] | consts[c + 1] << 32;
            return consts[c] & Bits.mask(bits);
        }

        // ---- ALU ----------------------------------------------------------------------------

        /** Source s of repetition k, read at {@code bits} (float modifiers applied when {@code fl}). */
        private long source(MInstr i, int s, int k, int bits, boolean fl) {
            Operand o = i.src(s);
            int step = k * (bits == 64 ? 2 : 1);
            long v = switch (o.kind()) {
                case REG -> readValue(o.index() + (o.rep() ? step : 0), bits);
                case CONST -> constValue(o.index() + (o.rep() ? step : 0), bits);
                case IMM ->
                    i.op().category() == 1
                            ? o.value() & Bits.mask(bits)
                            : fl ? FloatBits.fromDouble(o.value(), bits) : o.value() & Bits.mask(bits);
                case SPECIAL -> system(SysVal.ofCode(o.index()));
                case PRED -> readPred() ? 1 : 0;
                case RELCONST -> {
                    // an index outside the constant file reads zero (Isel clamps run-time indices anyway)
                    long at = readA0() + o.value();
                    yield at < 0 || at >= consts.length ? 0 : constValue((int) at, bits);
                }
                default -> throw error("missing source " + (s + 1));
            };
            if (fl) {
                if (o.abs()) v &= ~FloatBits.signBit(bits);
                if (o.neg()) v ^= FloatBits.signBit(bits);
            }
            return v;
        }

        private void alu(MInstr i, int k) {
            MOp op = i.op();
            if (op == MOp.MOVA) {
                a0 = (int) readReg(i.src(0).index());
                a0Write = time;
                a0WriterPc = pc;
                return;
            }
            MType t = i.type();
            int bits = t.bits();
            long result;
            int outBits = bits;
            switch (op) {
                case MOV -> result = source(i, 0, k, bits, false);
                case COV -> {
                    MType from = i.srcType();
                    long x = source(i, 0, k, from.bits(), false);
                    result = Semantics.convert(from, t).evaluate(from.bits(), 1, new long[][] {{x}})[0];
                }
                case CMPS_F, CMPS_U, CMPS_S -> {
                    Op cmp = Semantics.compare(op, i.cond());
                    if (cmp == null)
                        throw error(op.base() + "." + i.type().suffix() + " has no condition "
                                + i.cond().text());
                    boolean fl = op == MOp.CMPS_F;
                    long a = source(i, 0, k, bits, fl), b = source(i, 1, k, bits, fl);
                    result = cmp.evaluate(bits, 1, new long[][] {{a}, {b}})[0];
                    outBits = 1;
                }
                case ABSNEG_F -> result = source(i, 0, k, bits, true);
                case ABSNEG_S -> {
                    Operand o = i.src(0);
                    long x = source(i, 0, k, bits, false);
                    if (o.abs()) x = Op.IABS.evaluate(bits, 1, new long[][] {{x}})[0];
                    if (o.neg()) x = Op.INEG.evaluate(bits, 1, new long[][] {{x}})[0];
                    result = x;
                }
                case BARY_F -> {
                    long slot = i.src(0).value(), comp = i.src(1).value() + k;
                    result = input((int) slot, (int) comp, 32);
                }
                case MAD_F -> {
                    long a = source(i, 0, k, bits, true), b = source(i, 1, k, bits, true);
                    long c = source(i, 2, k, bits, true);
                    long p = Op.FMUL.evaluate(bits, 1, new long[][] {{a}, {b}})[0];
                    result = Op.FADD.evaluate(bits, 1, new long[][] {{p}, {c}})[0];
                }
                case SEL_B -> {
                    long cond = source(i, 1, k, 32, false);
                    result = cond != 0 ? source(i, 0, k, bits, false) : source(i, 2, k, bits, false);
                }
                default -> {
                    Op sem = op.semantics();
                    if (sem == null) throw error(op + " has no semantics");
                    boolean fl = t.kind() == MType.Kind.FLOAT;
                    long[][] srcs = new long[i.srcs().size()][];
                    for (int s = 0; s < srcs.length; s++)
                        srcs[s] = new long[] {source(i, s, k, sem.inputBits(s, bits), fl)};
                    result = sem.evaluate(bits, 1, srcs)[0];
                    outBits = sem.outputBits(bits);
                }
            }
            if (i.sat()) result = Op.FSAT.evaluate(bits, 1, new long[][] {{result}})[0];
            Operand d = i.dst();
            if (d.kind() == Operand.Kind.PRED) {
                pred = (result & 1) != 0;
                predWritten = true;
                predWrite = time;
                predWriterPc = pc;
                return;
            }
            int step = k * (outBits == 64 ? 2 : 1);
            writeValue(d.index() + step, result, outBits, op.latency());
        }

        private long system(SysVal v) {
            int[] ws = program.shader().workgroupSize();
            return switch (v) {
                        case LOCAL_ID_X -> localId[0];
                        case LOCAL_ID_Y -> localId[1];
                        case LOCAL_ID_Z -> localId[2];
                        case WORKGROUP_ID_X -> workgroupId[0];
                        case WORKGROUP_ID_Y -> workgroupId[1];
                        case WORKGROUP_ID_Z -> workgroupId[2];
                        case NUM_WORKGROUPS_X -> numWorkgroups[0];
                        case NUM_WORKGROUPS_Y -> numWorkgroups[1];
                        case NUM_WORKGROUPS_Z -> numWorkgroups[2];
                        case WORKGROUP_SIZE_X -> ws[0];
                        case WORKGROUP_SIZE_Y -> ws[1];
                        case WORKGROUP_SIZE_Z -> ws[2];
                        case LOCAL_INDEX -> {
                            int[] l = localId;
                            yield l[0] + l[1] * ws[0] + l[2] * ws[0] * ws[1];
                        }
                        case FRAG_COORD_X -> in.fragCoord()[0];
                        case FRAG_COORD_Y -> in.fragCoord()[1];
                        case FRAG_COORD_Z -> in.fragCoord()[2];
                        case FRAG_COORD_W -> in.fragCoord()[3];
                        case FRONT_FACE -> in.frontFace() ? 1 : 0;
                        case VERTEX_ID -> in.vertexId();
                        case INSTANCE_ID -> in.instanceId();
                    }
                    & 0xffffffffL;
        }

        private long input(int slot, int comp, int bits) {
            Variable v = program.variableAt(Variable.Kind.INPUT, slot);
            if (v == null) throw error("no input in slot " + slot);
            if (comp < 0 || comp >= v.type().components())
                throw error("input @" + v.name() + " has no component " + comp);
            long[] val = in.value(v.name());
            long x = val == null || comp >= val.length ? 0 : val[comp];
            return x & Bits.mask(bits);
        }

        // ---- textures and memory -------------------------------------------------------------

        private void texture(MInstr i) {
            long slot = i.index();
            if (i.src(2).kind() == Operand.Kind.REG) slot += readReg(i.src(2).index());
            Program.TextureSlot ts = i.bindless()
                    ? program.heapAt(slot)
                    : slot < Encoding.MAX_SLOT ? program.textureAt((int) slot) : null;
            if (ts == null && i.bindless()) throw error("no texture at descriptor " + slot + " of the heap");
            if (ts == null)
                throw error("no texture t" + slot
                        + (i.src(2).kind() == Operand.Kind.REG ? " (t" + i.index() + " plus the index register)" : ""));
            Variable v = ts.variable();
            if (v.dim().coordinates() != i.dim())
                throw error("texture @" + v.name() + " has " + v.dim().coordinates() + " dimensions, not " + i.dim());
            long[] texel;
            if (v.kind() == Variable.Kind.IMAGE) {
                // a storage image bound as a texture: isam reads its texel as ldib does
                if (i.op() != MOp.ISAM) throw error(i.op().base() + " on storage image @" + v.name() + " (only isam)");
                long[] coord = new long[i.dim()];
                for (int c = 0; c < coord.length; c++)
                    coord[c] = readReg(i.src(0).index() + c);
                texel = imageTexel(v, coord);
            } else if (i.op() == MOp.GETSIZE) {
                // getsize means txs: one definition of a texture's size (a cube array's counts cubes)
                texel = Arrays.copyOf(Interpreter.textureSize(texture(v, ts.element()), v.dim()), 4);
            } else {
                long[] coord = new long[i.dim()];
                for (int c = 0; c < coord.length; c++)
                    coord[c] = i.isPrefetch()
                            // interpolated from the input, as bary.f reads it
                            ? input(i.prefetchInput(), i.prefetchComponent() + c, 32)
                            : readReg(i.src(0).index() + c);
                if (i.op() == MOp.SAMLOD) readReg(i.src(1).index());
                texel = i.op() == MOp.ISAM
                        ? TextureUnit.fetch(texture(v, ts.element()), coord)
                        : v.dim() == TextureDim.CUBE_ARRAY
                                ? TextureUnit.sampleCubeArray(texture(v, ts.element()), coord)
                                : v.dim() == TextureDim.CUBE
                                        ? TextureUnit.sampleCube(texture(v, ts.element()), coord)
                                        : TextureUnit.sample(
                                                texture(v, ts.element()),
                                                coord,
                                                v.dim().arrayed());
            }
            int r = i.dst().index();
            for (int c = 0; c < 4; c++) {
                if ((i.count() & (1 << c)) != 0) writeReg(r++, texel[c], i.op().latency());
            }
        }

        private void memory(MInstr i) {
            MOp op = i.op();
            if (op.isAtomic()) {
                atomic(i);
                return;
            }
            if (op.isImage()) {
                image(i);
                return;
            }
            int bits = i.type().bits(), regs = i.type().regs();
            long address = i.offset();
            if (i.src(0).kind() == Operand.Kind.REG) {
                address += op.space() == MOp.Space.DEVICE
                        ? readValue(i.src(0).index(), 64)
                        : readReg(i.src(0).index());
            }
            if (op.isStore()) {
                long[] data = new long[i.count()];
                for (int c = 0; c < data.length; c++)
                    data[c] = readValue(i.src(1).index() + c * regs, bits);
                switch (op) {
                    case STG -> Memory.store(buffer(i.index()), address, data, bits);
                    case STGA ->
                        Memory.store(
                                Interpreter.deviceMemory(buffers),
                                address - ShaderInputs.DEVICE_MEMORY_BASE,
                                data,
                                bits);
                    case STL -> store(local, "local memory", address, data, bits);
                    case STLW -> store(shared, "workgroup memory", address, data, bits);
                    case STP -> store(priv, "private memory", address, data, bits);
                    case STC -> {
                        for (int c = 0; c < data.length; c++) put((int) address + c, data[c]);
                    }
                    default -> {
                        long[] out = outputs.get(i.index());
                        Variable v = program.variableAt(Variable.Kind.OUTPUT, i.index());
                        if (out == null || v == null) throw error("no output in slot " + i.index());
                        if (v.type().bitSize() != bits)
                            throw error("output @" + v.name() + " is " + v.type() + ", not "
                                    + i.type().suffix());
                        for (int c = 0; c < data.length; c++) {
                            int at = i.offset() + c;
                            if (at < 0 || at >= out.length)
                                throw error("output @" + v.name() + " has no component " + at);
                            out[at] = data[c];
                        }
                    }
                }
                return;
            }
            long[] data = new long[i.count()];
            switch (op) {
                case LDG -> data = Memory.load(buffer(i.index()), address, i.count(), bits);
                case LDGA ->
                    data = Memory.load(
                            Interpreter.deviceMemory(buffers),
                            address - ShaderInputs.DEVICE_MEMORY_BASE,
                            i.count(),
                            bits);
                case LDL -> data = load(local, "local memory", address, i.count(), bits);
                case LDLW -> data = load(shared, "workgroup memory", address, i.count(), bits);
                case LDP -> data = load(priv, "private memory", address, i.count(), bits);
                case LDC -> {
                    for (int c = 0; c < data.length; c++) {
                        long at = address + (long) c * regs;
                        data[c] = at < 0 || at + regs > consts.length ? 0 : constValue((int) at, bits);
                    }
                }
                default -> {
                    for (int c = 0; c < data.length; c++) data[c] = input(i.index(), i.offset() + c, bits);
                }
            }
            for (int c = 0; c < data.length; c++)
                writeValue(i.dst().index() + c * regs, data[c], bits, i.op().latency());
        }

        private void image(MInstr i) {
            Variable v = program.variableAt(Variable.Kind.IMAGE, i.index());
            if (v == null) throw error("no image i" + i.index());
            if (v.dim().coordinates() != i.dim())
                throw error("image @" + v.name() + " has " + v.dim().coordinates() + " dimensions, not " + i.dim());
            long[] coord = new long[i.dim()];
            for (int c = 0; c < coord.length; c++) coord[c] = readReg(i.src(0).index() + c);
            if (i.op() != MOp.STIB) {
                long[] texel = imageTexel(v, coord);
                for (int c = 0; c < 4; c++) writeReg(i.dst().index() + c, texel[c], i.op().latency());
                return;
            }
            long at = TextureUnit.imageOffset(texture(v, 0), coord);
            long[] texel = new long[4];
            for (int c = 0; c < 4; c++) texel[c] = readReg(i.src(1).index() + c);
            // kept at the image's format precision (ISA.md: ldib/stib leave the format to the descriptor)
            if (at >= 0) Memory.store(buffers.get(v), at, v.format().store(texel), 32);
        }

        /** Image {@code v}'s texel at {@code coord}, its four 32-bit words (zero outside the image). */
        private long[] imageTexel(Variable v, long[] coord) {
            long at = TextureUnit.imageOffset(texture(v, 0), coord);
            return at < 0 ? new long[4] : Memory.load(buffers.get(v), at, 4, 32);
        }

        /** The word is read, combined and written at once: invocations never interleave inside one. */
        private void atomic(MInstr i) {
            MOp op = i.op();
            long data = readReg(i.src(1).index());
            long compare =
                    i.src(2).kind() == Operand.Kind.REG ? readReg(i.src(2).index()) : 0;
            long old;
            if (op.isImageAtomic()) {
                Variable v = program.variableAt(Variable.Kind.IMAGE, i.index());
                if (v == null) throw error("no image i" + i.index());
                long[] coord = new long[i.dim()];
                for (int c = 0; c < coord.length; c++)
                    coord[c] = readReg(i.src(0).index() + c);
                long at = TextureUnit.imageOffset(texture(v, 0), coord);
                old = at < 0 ? 0 : Memory.atomic(buffers.get(v), at, op, i.type(), data, compare);
            } else if (op.isSharedAtomic()) {
                long address = readReg(i.src(0).index());
                old = load(shared, "workgroup memory", address, 1, 32)[0];
                store(
                        shared,
                        "workgroup memory",
                        address,
                        new long[] {Memory.combine(op, i.type(), old, data, compare)},
                        32);
            } else {
                old = Memory.atomic(buffer(i.index()), readReg(i.src(0).index()), op, i.type(), data, compare);
            }
            writeValue(i.dst().index(), old, 32, i.op().latency());
        }

        /** The texture the inputs bind to element {@code element} of {@code v} (one texel of zeros when none). */
        private dev.lathe.ir.interp.Texture texture(Variable v, int element) {
            dev.lathe.ir.interp.Texture t = in.texture(v.elementName(element));
            return t == null ? TextureUnit.UNBOUND : t;
        }

        private byte[] buffer(int binding) {
            Variable v = program.variableAt(Variable.Kind.BUFFER, binding);
            if (v == null) throw error("no buffer b" + binding);
            return buffers.get(v);
        }

        private long[] load(byte[] mem, String what, long address, int count, int bits) {
            if (address < 0 || address + (long) count * bits / 8 > mem.length) {
                throw error(what + " read at byte " + address + " is outside its " + mem.length + " bytes");
            }
            return Memory.load(mem, address, count, bits);
        }

        private void store(byte[] mem, String what, long address, long[] data, int bits) {
            if (address < 0 || address + (long) data.length * bits / 8 > mem.length) {
                throw error(what + " write at byte " + address + " is outside its " + mem.length + " bytes");
            }
            Memory.store(mem, address, data, bits);
        }
    }
}
