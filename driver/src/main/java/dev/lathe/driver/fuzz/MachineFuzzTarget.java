package dev.lathe.driver.fuzz;

import dev.lathe.backend.compile.CompileException;
import dev.lathe.backend.compile.Target;
import dev.lathe.backend.program.Program;
import dev.lathe.backend.program.ProgramBinary;
import dev.lathe.backend.program.ProgramException;
import dev.lathe.backend.program.ProgramText;
import dev.lathe.backend.sim.SimulationException;
import dev.lathe.backend.sim.Simulator;
import dev.lathe.driver.Compiler;
import dev.lathe.ir.Stage;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.interp.InterpreterException;
import dev.lathe.ir.interp.ShaderInputs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

/**
 * Machine code: Lathe binaries ({@code .bin}). Seeds: random programs of the generator compiled
 * by the backend. Mutations flip bits, mostly in the instructions. The oracle: a binary Lathe
 * refuses gets a message naming a byte (or a line of its text header); a binary it reads
 * encodes back to the same instruction words, prints as assembly that assembles to the same
 * binary, and runs in the simulator to its end or to a located simulation error (a hazard, a
 * register out of range, the step limit), never to an internal error.
 */
public final class MachineFuzzTarget extends SeededTarget {
    static final String FILE = "fuzz.bin";
    /** A byte of the binary, or a line and column of its text header ({@code fuzz.bin (header):3:7:}). */
    private static final Pattern LOCATED =
            Pattern.compile("^" + Pattern.quote(FILE) + "(: byte \\d+: |( \\(header\\))?:\\d+:\\d+: )");

    public MachineFuzzTarget() {
        super("machine", ".bin", compiledPrograms(), null);
    }

    /** Random programs of the generator, compiled: the binaries mutations start from. */
    private static List<byte[]> compiledPrograms() {
        List<byte[]> seeds = new ArrayList<>();
        for (long k = 0; seeds.size() < 30 && k < 200; k++) {
            RandomProgramGenerator.Options o = RandomProgramGenerator.Options.mixed(k)
                    .withWideSizes(false)
                    .withRandomOps(Target.IR3_LIKE.selectedOps());
            try {
                seeds.add(ProgramBinary.write(
                        Compiler.compile(RandomProgramGenerator.generate(k, o)).program()));
            } catch (CompileException e) {
                // a program the target cannot take is no seed
            }
        }
        return seeds;
    }

    @Override
    public boolean keepsLength() {
        return true;
    }

    @Override
    public byte[] mutate(byte[] seed, SplittableRandom r) {
        int codeStart = codeStart(seed);
        // mostly the instructions; sometimes the text header
        return Mutations.bits(seed, r, r.nextInt(5) == 0 || codeStart >= seed.length ? 16 : codeStart);
    }

    /** Where the instruction words start: after the magic, version, header length, header and count. */
    static int codeStart(byte[] b) {
        int h = b[12] & 0xff | (b[13] & 0xff) << 8 | (b[14] & 0xff) << 16 | (b[15] & 0xff) << 24;
        return 16 + h + 4;
    }

    @Override
    public String run(byte[] input) throws FuzzFailure {
        Program p;
        try {
            p = ProgramBinary.read(FILE, input);
        } catch (ProgramException e) {
            if (!LOCATED.matcher(e.getMessage()).find()) {
                throw new FuzzFailure(
                        "a message without its place",
                        "a refused binary without its byte or line: " + Located.firstLine(e.getMessage()));
            }
            return "refused with a located message";
        }
        byte[] again = ProgramBinary.write(p);
        int n = p.code().size() * 8;
        if (!Arrays.equals(input, input.length - n, input.length, again, again.length - n, again.length)) {
            throw new FuzzFailure("decode/encode round trip", "the instruction words do not encode back to themselves");
        }
        byte[] viaText = ProgramBinary.write(ProgramText.parse("fuzz.s", ProgramText.print(p)));
        if (!Arrays.equals(again, viaText))
            throw new FuzzFailure("disassembly/assembly round trip", "printing and assembling changes the binary");
        ShaderInputs in = RandomProgramGenerator.randomInputs(p.shader(), 1);
        Simulator sim = new Simulator(p).stepLimit(200_000);
        try {
            if (p.shader().stage() == Stage.COMPUTE) sim.dispatch(in, 1, 1, 1);
            else sim.run(in);
        } catch (SimulationException | InterpreterException e) {
            return "read; the simulation stops with a message";
        }
        return "read and simulated";
    }
}
