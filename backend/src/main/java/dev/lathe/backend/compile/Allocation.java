package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Operand;
import java.util.Locale;

/**
 * How register allocation works ({@link RegAlloc}): the register file it may use, and the
 * spilling choices that can be switched to measure them.
 *
 * @param maxRegs       vec4 registers the shader may use, 1 to 48 (r0 to r{maxRegs-1}); fewer than
 *                      the hardware has makes spilling happen on any shader, as {@code lathe
 *                      compile --max-regs N} does
 * @param reloadElision a reloaded value stays in its register for the instructions after the
 *                      one it was reloaded for (the reload elision review of 2015, docs/BACKGROUND.md); without it every instruction that reads
 *                      a spilled value reloads it
 * @param spillChoice   which value leaves the registers when they are full
 */
public record Allocation(int maxRegs, boolean reloadElision, SpillChoice spillChoice) {
    /** The hardware's file: 48 vec4 registers. */
    public static final int MAX_REGS = Operand.NUM_REGS / 4;

    public static final Allocation DEFAULT = new Allocation(MAX_REGS, true, SpillChoice.NEXT_USE);

    /** Which value to evict from a full register file. */
    public enum SpillChoice {
        /** The value read again farthest ahead (Belady's MIN, as Braun &amp; Hack and ir3 do), loop exits counting far. */
        NEXT_USE,
        /** The value whose reads and definition weigh least by i965's cost (1, ×10 per loop, ×0.5 inside an if). */
        COST;

        /** The option's spelling: {@code next-use}, {@code cost}. */
        public String spelling() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** The choice spelled {@code s}; an IllegalArgumentException naming the choices otherwise. */
        public static SpillChoice parse(String s) {
            for (SpillChoice c : values()) if (c.spelling().equals(s)) return c;
            throw new IllegalArgumentException("unknown spill choice '" + s + "' (known: next-use, cost)");
        }
    }

    public Allocation {
        if (maxRegs < 1 || maxRegs > MAX_REGS) {
            throw new IllegalArgumentException(
                    "the register budget must be 1 to " + MAX_REGS + " vec4 registers, not " + maxRegs);
        }
        if (spillChoice == null) throw new IllegalArgumentException("no spill choice");
    }

    /** The budget in 32-bit registers. */
    public int units() {
        return maxRegs * 4;
    }

    public Allocation withMaxRegs(int n) {
        return new Allocation(n, reloadElision, spillChoice);
    }

    public Allocation withReloadElision(boolean on) {
        return new Allocation(maxRegs, on, spillChoice);
    }

    public Allocation withSpillChoice(SpillChoice c) {
        return new Allocation(maxRegs, reloadElision, c);
    }
}
