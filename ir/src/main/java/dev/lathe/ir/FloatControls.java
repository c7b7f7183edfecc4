package dev.lathe.ir;

import java.util.ArrayList;
import java.util.List;

/**
 * SPIR-V's float-control execution modes (SPV_KHR_float_controls, core in SPIR-V 1.4), as a
 * shader asks for them: {@code denorm_preserve32} is {@code OpExecutionMode %main DenormPreserve 32}.
 * Lathe's own float semantics (the interpreter's, the target's) do not change with them; they are
 * facts about the shader that rules may be gated on ({@code if float_controls(denorm_preserve32)}),
 * as NIR's rules are gated on {@code info->float_controls_execution_mode}.
 */
public final class FloatControls {
    private FloatControls() {}

    /** The modes, by SPIR-V ExecutionMode number (4459 DenormPreserve … 4463 RoundingModeRTZ). */
    private static final List<String> MODES = List.of(
            "denorm_preserve",
            "denorm_flush_to_zero",
            "signed_zero_inf_nan_preserve",
            "rounding_mode_rte",
            "rounding_mode_rtz");

    /** The first SPIR-V ExecutionMode number of {@link #MODES}. */
    private static final int FIRST_MODE = 4459;

    /** Every spelling, mode then width: {@code denorm_preserve16}, {@code denorm_preserve32} … */
    public static final List<String> ALL = all();

    private static List<String> all() {
        List<String> out = new ArrayList<>();
        for (String m : MODES) for (int w : new int[] {16, 32, 64}) out.add(m + w);
        return List.copyOf(out);
    }

    /** The spelling of SPIR-V's execution mode {@code mode} at {@code width} bits, or null if it is not a float control. */
    public static String ofSpirv(int mode, long width) {
        int i = mode - FIRST_MODE;
        if (i < 0 || i >= MODES.size() || width != 16 && width != 32 && width != 64) return null;
        return MODES.get(i) + width;
    }

    /** True when {@code s} spells a float control. */
    public static boolean isKnown(String s) {
        return ALL.contains(s);
    }
}
