package dev.lathe.spirv;

import static dev.lathe.spirv.SpirvOps.*;

import dev.lathe.ir.IrBuilder;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Op;
import dev.lathe.spirv.SpirvModule.Instruction;
import java.util.ArrayList;
import java.util.List;

/**
 * Matrix instructions lowered to vector math on columns (a matrix is the list of its column
 * vectors): M·v = Σ M[j]·v[j] as a chain of multiplies and adds from the last column to the
 * first, v·M by dot products with the columns, M·N column by column, scalings, outer products and
 * transposes.
 */
final class Matrices {
    private Matrices() {}

    static Val translate(SpirvToIr t, Instruction i) {
        ModuleInfo m = t.m;
        IrBuilder b = t.b;
        switch (i.opcode()) {
            case OpMatrixTimesScalar -> { // MatrixTimesScalar
                List<Val> cols = columns(t, i, 2);
                Value s = t.simple(i, t.val(i, m.id(i, 3)));
                List<Val> out = new ArrayList<>();
                for (Val c : cols) {
                    Value v = t.simple(i, c);
                    out.add(new Val.Simple(b.alu(Op.FMUL, v, Instructions.splat(b, s, v.numComponents()))));
                }
                return new Val.Composite(out);
            }
            case OpVectorTimesMatrix -> { // VectorTimesMatrix: result[j] = dot(v, M[j])
                Value v = t.simple(i, t.val(i, m.id(i, 2)));
                List<Val> cols = columns(t, i, 3);
                Value[] r = new Value[cols.size()];
                for (int j = 0; j < r.length; j++) r[j] = dot(b, v, t.simple(i, cols.get(j)));
                return new Val.Simple(r.length == 1 ? r[0] : b.vec(r));
            }
            case OpMatrixTimesVector -> { // MatrixTimesVector
                return new Val.Simple(times(t, i, columns(t, i, 2), t.simple(i, t.val(i, m.id(i, 3)))));
            }
            case OpMatrixTimesMatrix -> { // MatrixTimesMatrix: column j = L * R[j]
                List<Val> l = columns(t, i, 2), r = columns(t, i, 3);
                List<Val> out = new ArrayList<>();
                for (Val c : r) out.add(new Val.Simple(times(t, i, l, t.simple(i, c))));
                return new Val.Composite(out);
            }
            case OpOuterProduct -> { // OuterProduct: column j = a * b[j]
                Value x = t.simple(i, t.val(i, m.id(i, 2))), y = t.simple(i, t.val(i, m.id(i, 3)));
                List<Val> out = new ArrayList<>();
                for (int j = 0; j < y.numComponents(); j++) {
                    out.add(new Val.Simple(
                            b.alu(Op.FMUL, x, Instructions.splat(b, b.channel(y, j), x.numComponents()))));
                }
                return new Val.Composite(out);
            }
            default -> { // 84 Transpose
                List<Val> cols = columns(t, i, 2);
                int rows = t.simple(i, cols.get(0)).numComponents();
                List<Val> out = new ArrayList<>();
                for (int r = 0; r < rows; r++) {
                    Value[] c = new Value[cols.size()];
                    for (int j = 0; j < c.length; j++) c[j] = b.channel(t.simple(i, cols.get(j)), r);
                    out.add(new Val.Simple(b.vec(c)));
                }
                return new Val.Composite(out);
            }
        }
    }

    static List<Val> columns(SpirvToIr t, Instruction i, int operand) {
        Val v = t.val(i, t.m.id(i, operand));
        if (!(v instanceof Val.Composite c)) throw t.m.module.error(i, "a matrix operand that is no matrix");
        return c.members();
    }

    /**
     * Σ M[j] * v[j], from the last column to the first: M[0]·v[0] + (M[1]·v[1] + (… + M[n-1]·v[n-1])),
     * the order NIR's SPIR-V frontend sums in. A position {@code M * vec4(p, 1.0)} then starts
     * from the column itself (the product by 1.0 folds) and every other term fuses into one
     * multiply-add with the sum so far: three instructions a row, where summing from the first
     * column leaves a separate add of the last column.
     */
    static Value times(SpirvToIr t, Instruction i, List<Val> cols, Value v) {
        IrBuilder b = t.b;
        Value acc = null;
        for (int j = cols.size() - 1; j >= 0; j--) {
            Value c = t.simple(i, cols.get(j));
            Value term = b.alu(Op.FMUL, c, Instructions.splat(b, b.channel(v, j), c.numComponents()));
            acc = acc == null ? term : b.alu(Op.FADD, term, acc);
        }
        return acc;
    }

    static Value dot(IrBuilder b, Value x, Value y) {
        if (x.numComponents() == 1) return b.alu(Op.FMUL, x, y);
        Op d = x.numComponents() == 2 ? Op.FDOT2 : x.numComponents() == 3 ? Op.FDOT3 : Op.FDOT4;
        return b.alu(d, x, y);
    }
}
