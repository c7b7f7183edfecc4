package dev.lathe.backend.program;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Variable;
import java.util.List;
import java.util.Map;

/**
 * A compiled shader: the machine code and what the code needs to run, the same way for the
 * {@code .s} text and the {@code .bin} binary ({@link ProgramText}, {@link ProgramBinary}).
 *
 * @param shader     the shader's stage, workgroup size and variable declarations (no code): the
 *                   simulator takes the interpreter's inputs and gives its kind of outputs by
 *                   these names
 * @param slots      per variable name, where the code finds it: a uniform's first constant
 *                   scalar, an input's or output's slot ({@code inN}/{@code outN}), a
 *                   buffer's binding ({@code bN}), a texture's number ({@code tN})
 * @param constants  initial constant-file scalars beyond the uniforms (large immediates), by index
 * @param localBytes size of each invocation's local memory ({@code ldl}/{@code stl})
 * @param privateBytes size of each invocation's spill scratch ({@code ldp}/{@code stp})
 * @param loops      loops in the program (a statistic; the code has only branches)
 * @param code       the instructions
 */
public record Program(Shader shader, Map<String, Integer> slots, Map<Integer, Long> constants, int localBytes,
                      int privateBytes, int loops, List<MInstr> code) {
    public Program {
        slots = Map.copyOf(slots);
        constants = Map.copyOf(constants);
        code = List.copyOf(code);
    }

    /** The variable mapped to {@code index} among those of a kind, or null. */
    public Variable variableAt(Variable.Kind kind, int index) {
        for (Variable v : shader.variables(kind)) {
            Integer at = slots.get(v.name());
            if (at != null && at == index) return v;
        }
        return null;
    }
}
