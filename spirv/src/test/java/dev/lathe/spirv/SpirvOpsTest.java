package dev.lathe.spirv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/** Every opcode and GLSL.std.450 instruction name the frontend switches on is the grammar's name for its number. */
class SpirvOpsTest {
    @Test
    void everyOpcodeNameIsTheGrammarsName() throws IllegalAccessException {
        assertTrue(checkNames(SpirvOps.class, SpirvNames::opcode) > 200);
    }

    @Test
    void everyGlsl450NameIsTheGrammarsName() throws IllegalAccessException {
        assertTrue(checkNames(Glsl450Ops.class, k -> SpirvNames.name(SpirvNames.GLSL_STD_450, k)) > 60);
    }

    /** Checks each int constant of {@code table} against {@code grammar}'s name for its value; how many there are. */
    private static int checkNames(Class<?> table, IntFunction<String> grammar) throws IllegalAccessException {
        int checked = 0;
        for (Field f : table.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != int.class) continue;
            int value = f.getInt(null);
            assertEquals(f.getName(), grammar.apply(value), table.getSimpleName() + "." + f.getName() + " = " + value);
            checked++;
        }
        return checked;
    }
}
