package dev.lathe.backend.compile;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.Variable;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * image_sam: loads of a storage image the shader never writes read it through the texture unit,
 * {@code isam} on a texture slot the image is also bound to, instead of {@code ldib}, as ir3
 * does for images NIR marks {@code ACCESS_CAN_REORDER} ({@code readonly}, or never written). The
 * texture unit writes only the components something reads (the write mask {@link
 * Isel#shrinkTexels} trims), so {@code imageLoad(img, p).rgb} takes three registers, not four,
 * and the load is a cat5 instruction: ldib goes to the image path, isam through the texture
 * cache. An image the shader writes (a store or an atomic on it) keeps {@code ldib}, which sees
 * the invocation's own earlier stores; the texture cache would not.
 *
 * <p>The texture slot is the lowest one no texture takes ({@link Layout#imageTexture},
 * {@code .slot @NAME.tex N} in the program); with all 32 taken the image keeps {@code ldib}.
 * The simulator's {@code isam} on such a slot reads the texel as {@code ldib} would
 * ({@code backend/ISA.md}, "Read-only images").
 */
final class ImageSam {
    private ImageSam() {}

    /** The {@code image_sam} pass. */
    static void rewrite(MachineFunction mf) {
        Set<Integer> written = new HashSet<>();
        for (List<MirInstr> code : mf.mir.values()) {
            for (MirInstr m : code) {
                if (m.kind == MirInstr.Kind.OP
                        && (m.proto.op() == MOp.STIB || m.proto.op().isImageAtomic())) written.add(m.proto.index());
            }
        }
        boolean any = false;
        for (List<MirInstr> code : mf.mir.values()) {
            for (int n = 0; n < code.size(); n++) {
                MirInstr m = code.get(n);
                if (m.kind != MirInstr.Kind.OP || m.proto.op() != MOp.LDIB || written.contains(m.proto.index()))
                    continue;
                Variable image = imageAt(mf, m.proto.index());
                int slot = image == null ? -1 : mf.layout.imageTexture(image, mf.shader);
                if (slot < 0) continue;
                MInstr p = m.proto;
                MInstr isam = MInstr.texture(
                        MOp.ISAM, p.type(), p.dim(), 0b1111, Operand.reg(0), Operand.reg(0), Operand.NONE, slot);
                code.set(n, MirInstr.op(isam, m.def, m.srcs[0], null, null));
                any = true;
            }
        }
        if (any) Isel.shrinkTexels(mf);
    }

    /** The image variable in image slot {@code index}, or null. */
    private static Variable imageAt(MachineFunction mf, int index) {
        for (Variable v : mf.shader.variables(Variable.Kind.IMAGE)) {
            Integer at = mf.layout.slots.get(v.name());
            if (at != null && at == index) return v;
        }
        return null;
    }
}
