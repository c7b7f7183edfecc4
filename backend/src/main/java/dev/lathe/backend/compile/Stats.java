package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Access;
import dev.lathe.backend.isa.Latency;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import java.util.List;

/**
 * The per-shader statistics of ir3's shader-db line, counted as {@code backend/ISA.md} defines
 * them. Stall cycles come from a straight-line walk of the code with the latencies the
 * simulator models ({@link Latency}). {@code cycles} is the static estimate: each instruction's
 * issue slots and stall, weighted by {@link #LOOP_WEIGHT} for every loop around it (a backward
 * branch closes a loop), both sides of an {@code if} counted. As ir3 counts them, the preamble's
 * instructions are not in {@code instructions} (they run once per draw) but in {@code dwords},
 * and {@code preamble} counts them.
 */
public record Stats(
        int instructions,
        int nops,
        int nonNops,
        int mov,
        int cov,
        int dwords,
        int full,
        int constlen,
        int[] cat,
        int stp,
        int ldp,
        long sstall,
        int ss,
        long systall,
        int sy,
        int waves,
        int loops,
        long cycles,
        int preamble,
        int maxLive,
        int spills,
        int fills,
        long spillCost) {

    /** What register allocation spilled: values given a slot, reloads (from memory or made again), and their i965 cost. */
    record Spilling(int spills, int fills, double cost) {
        static final Spilling NONE = new Spilling(0, 0, 0);
    }

    /** How many times the static estimate assumes a loop runs. */
    public static final int LOOP_WEIGHT = 8;

    static Stats of(
            List<MInstr> code, List<MInstr> preamble, int constScalars, int loops, int maxLive, Spilling spilling) {
        int[] depth = loopDepths(code);
        long weighted = 0;
        int instructions = 0, nops = 0, mov = 0, cov = 0, stp = 0, ldp = 0, ss = 0, sy = 0, maxReg = -1;
        int[] cat = new int[8];
        long time = 0, sstall = 0, systall = 0, ssDone = 0, syDone = 0;
        for (int pc = 0; pc < code.size(); pc++) {
            MInstr i = code.get(pc);
            long before = time;
            int slots = i.rpt() + 1;
            instructions += slots + i.nop();
            nops += i.nop() + (i.op() == MOp.NOP ? slots : 0);
            if (i.op() == MOp.MOV) mov += slots;
            if (i.op() == MOp.COV) cov += slots;
            cat[i.category()] += slots;
            if (i.op() == MOp.STP) stp++;
            if (i.op() == MOp.LDP) ldp++;
            if (i.ss()) {
                ss++;
                long stall = Math.max(0, ssDone - time);
                sstall += stall;
                time += stall;
            }
            if (i.sy()) {
                sy++;
                long stall = Math.max(0, syDone - time);
                systall += stall;
                time += stall;
            }
            switch (i.op().latency()) {
                case SFU -> ssDone = Math.max(ssDone, time + i.rpt() + Latency.SFU_CYCLES); // the last repetition's
                case LOAD -> syDone = Math.max(syDone, time + i.rpt() + Latency.LOAD_CYCLES);
                case ALU -> {}
            }
            time += slots + i.nop();
            weighted += (time - before) * weight(depth[pc]);
            for (int r : Access.reads(i)) if (r < Access.P0) maxReg = Math.max(maxReg, r);
            for (int r : Access.writes(i)) if (r < Access.P0) maxReg = Math.max(maxReg, r);
        }
        int full = maxReg < 0 ? 0 : maxReg / 4 + 1;
        int waves = full == 0 ? 16 : Math.min(16, 96 / full * 2);
        return new Stats(
                instructions,
                nops,
                instructions - nops,
                mov,
                cov,
                2 * (code.size() + preamble.size()),
                full,
                (constScalars + 3) / 4,
                cat,
                stp,
                ldp,
                sstall,
                ss,
                systall,
                sy,
                waves,
                loops,
                weighted,
                preamble.size(),
                maxLive,
                spilling.spills(),
                spilling.fills(),
                Math.round(spilling.cost()));
    }

    private static long weight(int depth) {
        long w = 1;
        for (int d = 0; d < depth; d++) w *= LOOP_WEIGHT;
        return w;
    }

    /** Per pc, how many loops hold it: the ranges from a backward branch's target to the branch. */
    static int[] loopDepths(List<MInstr> code) {
        int[] diff = new int[code.size() + 1];
        for (int pc = 0; pc < code.size(); pc++) {
            MInstr i = code.get(pc);
            if ((i.op() == MOp.JUMP || i.op() == MOp.BR) && i.offset() <= 0) {
                int target = Math.max(0, pc + i.offset());
                diff[target]++;
                diff[pc + 1]--;
            }
        }
        int[] depth = new int[code.size()];
        int d = 0;
        for (int pc = 0; pc < code.size(); pc++) {
            d += diff[pc];
            depth[pc] = d;
        }
        return depth;
    }

    /** The shader-db line: {@code NAME: 123 inst, 4 nops, …}. */
    public String line(String name) {
        StringBuilder sb = new StringBuilder(name).append(": ");
        sb.append(instructions)
                .append(" inst, ")
                .append(nops)
                .append(" nops, ")
                .append(nonNops)
                .append(" non-nops, ")
                .append(mov)
                .append(" mov, ")
                .append(cov)
                .append(" cov, ")
                .append(dwords)
                .append(" dwords, ")
                .append(full)
                .append(" full, ")
                .append(constlen)
                .append(" constlen, ");
        for (int c = 0; c < 8; c++) sb.append(cat[c]).append(" cat").append(c).append(", ");
        sb.append(stp)
                .append(" stp, ")
                .append(ldp)
                .append(" ldp, ")
                .append(sstall)
                .append(" sstall, ")
                .append(ss)
                .append(" (ss), ")
                .append(systall)
                .append(" systall, ")
                .append(sy)
                .append(" (sy), ")
                .append(waves)
                .append(" waves, ")
                .append(loops)
                .append(" loops, ")
                .append(cycles)
                .append(" cycles, ")
                .append(preamble)
                .append(" preamble, ")
                .append(spills)
                .append(" spills, ")
                .append(fills)
                .append(" fills, ")
                .append(spillCost)
                .append(" spill-cost");
        return sb.toString();
    }
}
