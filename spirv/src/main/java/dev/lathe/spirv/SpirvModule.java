package dev.lathe.spirv;

import java.util.List;

/**
 * A SPIR-V module as words: the header fields and the instructions in order, each with the
 * word offset it starts at (for messages). The reader has checked every length; nothing else
 * about the instructions is known yet.
 *
 * @param file    the name messages start with
 * @param version the SPIR-V version word (0x00010000 for 1.0 … 0x00010600 for 1.6)
 * @param bound   the id bound: every id is below it
 */
public record SpirvModule(String file, int version, int bound, List<Instruction> instructions) {
    public SpirvModule {
        instructions = List.copyOf(instructions);
    }

    /** One instruction: opcode, operand words (the word count and opcode word excluded), and where it starts. */
    public record Instruction(int opcode, int[] operands, int word) {
        public int operand(int i) {
            return operands[i];
        }

        public int count() {
            return operands.length;
        }
    }

    /** An error at an instruction: {@code FILE: word N: message}. */
    public SpirvException error(Instruction i, String message) {
        return new SpirvException(file + ": word " + i.word() + ": " + message);
    }
}
