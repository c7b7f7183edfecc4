package dev.lathe.spirv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;

/** Every opcode name the frontend switches on is the grammar's name for its value. */
class SpirvOpsTest {
    @Test
    void everyNameIsTheGrammarsNameForItsValue() throws IllegalAccessException {
        int checked = 0;
        for (Field f : SpirvOps.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != int.class) continue;
            int value = f.getInt(null);
            assertEquals(f.getName(), SpirvNames.opcode(value), "SpirvOps." + f.getName() + " = " + value);
            checked++;
        }
        assertTrue(checked > 200, "only " + checked + " opcodes named");
    }

    /** Every GLSL.std.450 instruction name the frontend switches on is the grammar's name for its number. */
    @Test
    void everyGlsl450NameIsTheGrammarsName() throws IllegalAccessException {
        int checked = 0;
        for (Field f : Glsl450Ops.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != int.class) continue;
            int value = f.getInt(null);
            assertEquals(
                    f.getName(),
                    SpirvNames.name(SpirvNames.GLSL_STD_450, value),
                    "Glsl450Ops." + f.getName() + " = " + value);
            checked++;
        }
        assertTrue(checked > 60, "only " + checked + " instructions named");
    }
}
