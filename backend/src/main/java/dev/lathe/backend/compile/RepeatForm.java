package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Access;
import dev.lathe.backend.isa.Encoding;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.Block;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * rpt: after register allocation, runs of up to four adjacent instructions that one
 * {@code (rptN)} instruction can stand for become that instruction (ir3's post-RA step of its
 * repeat groups, the ir3 rptN merge request of 2024, docs/BACKGROUND.md).
 *
 * <p>A run merges when its instructions are the same ALU instruction (op, types, condition,
 * saturation, source modifiers), instruction k writes the first one's destination plus k (pairs:
 * plus 2k), and each source either stays the same register, constant or immediate in every
 * instruction, or advances by one value per instruction (marked {@code (r)}); {@code bary.f}
 * reads the next component. No instruction of the run may read what an earlier one wrote:
 * repetitions issue back to back, where a dependent read would need the ALU delay. Repetition k
 * issues k slots after the first exactly as the k-th instruction of the run would when none
 * of them waits, so a run grows only while its next instruction would not wait (legalization's
 * own walk over the block, {@link Legalize.Timing}, tells): then the timing is unchanged and the
 * code is two dwords shorter per merged instruction.
 *
 * <p>The pass looks at the registers only, not at how the instructions came to be: the repeat
 * groups of selection ({@link MirInstr#group}) are what make such runs likely — the scheduler
 * keeps their members together and allocation gives them consecutive registers — but any run
 * that meets the conditions merges, so nothing the passes in between did to a group can make
 * the merged code wrong. ir3 forms only its linked groups; checking every adjacent run is the
 * same check without the link.
 */
final class RepeatForm {
    private RepeatForm() {}

    /** The most instructions one {@code (rptN)} stands for: N is 0 to 3. */
    static final int MAX = 4;

    /**
     * The {@code rpt} pass: each block's code, runs only where no member would wait; and the
     * preamble, which its own pass has already legalized, so that every repetition issues where
     * its instruction did.
     */
    static void form(MachineFunction mf) {
        for (Map.Entry<Block, List<MInstr>> e : mf.allocated.entrySet()) e.setValue(form(e.getValue(), true));
        if (!mf.preamble.isEmpty()) mf.preamble = form(mf.preamble, false);
    }

    /**
     * The {@code rpt_all} pass: every run that one {@code (rptN)} can stand for, even where a
     * member would wait (legalization then makes the whole instruction wait): the smallest code,
     * not the fastest; and every merge the encoding allows, for the tests.
     */
    static void formAll(MachineFunction mf) {
        for (Map.Entry<Block, List<MInstr>> e : mf.allocated.entrySet()) e.setValue(form(e.getValue(), false));
        if (!mf.preamble.isEmpty()) mf.preamble = form(mf.preamble, false);
    }

    /**
     * The code with its runs merged. {@code timed}: a run grows only while its next instruction
     * would not wait. Untimed, the nops and sync flags already placed (legalized code) are kept: a
     * run is instructions with no empty slot between them, the first may carry the sync flags
     * and the last the {@code (nopN)}.
     */
    static List<MInstr> form(List<MInstr> code, boolean timed) {
        List<MInstr> out = new ArrayList<>(code.size());
        Legalize.Timing timing = timed ? new Legalize.Timing() : null;
        int n = 0;
        while (n < code.size()) {
            MInstr head = code.get(n);
            int len = 1;
            if (repeatable(head)) {
                Run run = new Run(head, timing);
                while (len < MAX && n + len < code.size() && run.extend(code.get(n + len))) len++;
                if (len > 1) head = run.merged();
            }
            out.add(head);
            if (timing != null) timing.issue(head);
            n += len;
        }
        return out;
    }

    /** Whether {@code next} right after {@code prev} would make a run of two (what the post-RA scheduler keeps together). */
    static boolean continues(MInstr prev, MInstr next) {
        return sameShape(prev, next) && repeatable(prev) && new Run(prev, null).extend(next);
    }

    /** Whether two instructions differ at most in their registers, operands and flags: one instruction, repeated. */
    static boolean sameShape(MInstr a, MInstr b) {
        return a.op() == b.op()
                && a.type() == b.type()
                && a.srcType() == b.srcType()
                && a.cond() == b.cond()
                && a.sat() == b.sat()
                && a.invert() == b.invert()
                && a.index() == b.index()
                && a.offset() == b.offset()
                && a.count() == b.count()
                && a.dim() == b.dim();
    }

    /**
     * Whether {@code i} can start a run: an ALU instruction writing a register, not yet repeated,
     * with no empty slot after it (its sync flags wait before the first repetition, as before it).
     */
    static boolean repeatable(MInstr i) {
        int cat = i.category();
        if (cat < 1 || cat > 4 || i.op() == MOp.MOVA || i.op() == MOp.RCP) return false;
        if (i.rpt() != 0 || i.nop() != 0 || i.dst().kind() != Operand.Kind.REG) return false;
        for (Operand o : i.srcs()) {
            if (o.kind() == Operand.Kind.SPECIAL || o.rep()) return false;
        }
        return true;
    }

    /** A run being grown from its first instruction. */
    private static final class Run {
        final MInstr head;
        /** Per source: 0 undecided, 1 the same in every instruction, 2 advancing ((r)). */
        final int[] mode;

        final BitSet written = new BitSet();
        int length = 1;
        /** The last instruction's (nopN) (code legalized already), and whether it ends the run. */
        int nop;

        boolean ended;

        /** Legalization's state before the run, with what the first instruction waits there. */
        final Legalize.Timing timing;

        final int headDelay;
        final boolean headSyncs;

        Run(MInstr head, Legalize.Timing timing) {
            this.head = head;
            this.timing = timing;
            this.headDelay = timing == null ? 0 : timing.delay(head);
            this.headSyncs = timing != null && timing.syncs(head);
            this.mode = new int[head.srcs().size()];
            for (int r : Access.writes(head)) written.set(r);
        }

        /** Adds {@code next} as the run's next instruction when it fits; whether it did. */
        boolean extend(MInstr next) {
            int k = length;
            if (ended) return false;
            if (!sameShape(head, next)
                    || next.rpt() != 0
                    || next.nop() != 0 && timing != null
                    || next.ss()
                    || next.sy()) return false;
            if (next.dst().kind() != Operand.Kind.REG
                    || next.dst().index() != head.dst().index() + k * Access.dstUnits(head)) return false;
            int[] chosen = mode.clone();
            for (int s = 0; s < chosen.length; s++) {
                Operand a = head.src(s), b = next.src(s);
                if (a.kind() != b.kind() || a.neg() != b.neg() || a.abs() != b.abs() || b.rep()) return false;
                if (head.op() == MOp.BARY_F) {
                    if (s == 1 ? b.value() != a.value() + k : b.value() != a.value()) return false;
                    continue;
                }
                boolean same = a.value() == b.value();
                boolean steps = (a.kind() == Operand.Kind.REG || a.kind() == Operand.Kind.CONST)
                        && b.value() == a.value() + (long) k * Access.units(head, s);
                if (chosen[s] == 0) chosen[s] = same ? 1 : steps ? 2 : 0;
                if (chosen[s] == 0 || chosen[s] == 1 && !same || chosen[s] == 2 && !steps) return false;
            }
            // a repetition reading what an earlier one wrote would read it too soon
            for (int r : Access.reads(next)) if (written.get(r)) return false;
            MInstr candidate = build(chosen, k, next.nop());
            if (Encoding.validate(candidate) != null) return false;
            // a later instruction of the run that would wait (for the ALU delay, or a sync the first
            // does not need) would make every repetition wait: the run issued one by one is sooner
            if (timing != null && (timing.delay(candidate) > headDelay || !headSyncs && timing.syncs(candidate)))
                return false;
            System.arraycopy(chosen, 0, mode, 0, mode.length);
            for (int r : Access.writes(next)) written.set(r);
            length++;
            nop = next.nop();
            ended = nop != 0; // code legalized already: the empty slots after it end the run
            return true;
        }

        private MInstr build(int[] modes, int rpt, int nopAfter) {
            MInstr m = head.withRpt(rpt).withNop(nopAfter);
            for (int s = 0; s < modes.length; s++) {
                if (modes[s] == 2) m = m.withSrc(s, m.src(s).withRep(true));
            }
            return m;
        }

        MInstr merged() {
            return build(mode, length - 1, nop);
        }
    }
}
