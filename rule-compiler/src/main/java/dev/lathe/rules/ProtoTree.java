package dev.lathe.rules;

import dev.lathe.ir.AluFlags;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.rules.ast.Ast;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A rule while it is being checked: the syntax tree's expressions as mutable nodes that the
 * phases of {@link RuleCheck} fill in — the op an infix operator means, the size class of each
 * value, how each literal is read — before {@link RuleFreezer} turns them into the immutable
 * {@link dev.lathe.rules.model.Node}s the code generator reads.
 */
final class ProtoTree {
    private ProtoTree() {}

    /** A value of the rule: an operation, a variable occurrence or a literal. */
    abstract static class P {
        final Ast.Pos pos;
        /** The size class of the value ({@link SizeClasses}), once sizes are assigned. */
        int cls = -1;
        /** From a size annotation on the value ({@code expr@32}), and where it is. */
        int outSize;

        Ast.Pos outSizePos;
        /** From a type annotation on the value ({@code expr@f32}), and where it is. */
        TypeClass annType;

        Ast.Pos annPos;
        /**
         * How many components the value is read at ({@link ComponentCheck}): 0 for the rule's
         * width (whatever the matched root has), else a fixed count (a horizontal op's operand).
         */
        int comps;
        /** {@code a.yx}, {@code unpack_64_2x32(a).y}: the components read, or null. */
        byte[] swizzle;

        Ast.Pos swizzlePos;

        P(Ast.Pos pos) {
            this.pos = pos;
        }
    }

    static final class POp extends P {
        Op op;
        /** The operator while unresolved ({@code +}, {@code unary-}); null for an op call. */
        String infix;

        final List<P> srcs;
        /** The size class of the op's unsized operands. */
        int opCls = -1;
        /** From {@code op@16(…)}. */
        int opSize;

        boolean once;
        Ast.Pos oncePos;
        /** From {@code op[nsz](…)}. */
        AluFlags flags = AluFlags.NONE;
        /** From {@code op[exact](…)} in a replacement. */
        boolean builtExact;
        /** From {@code op(…)@only_used_by_fadd} and the other use conditions. */
        final java.util.EnumSet<dev.lathe.ir.rewrite.UseCondition> uses =
                java.util.EnumSet.noneOf(dev.lathe.ir.rewrite.UseCondition.class);
        /** From {@code op(…)@low8} / {@code @low16}: only that many low bits of the result are used (0: all). */
        int lowBits;

        Ast.Pos lowBitsPos;
        /** An infix operator whose operands' annotations disagree (reported). */
        boolean failed;

        POp(Ast.Pos pos, Op op, String infix, List<P> srcs) {
            super(pos);
            this.op = op;
            this.infix = infix;
            this.srcs = srcs;
        }

        /** The operator as written: {@code -} for unary minus. */
        String shownInfix() {
            return infix.startsWith("unary") ? infix.substring(5) : infix;
        }
    }

    static final class PVar extends P {
        final String name;
        final boolean constOnly;

        PVar(Ast.Pos pos, String name, boolean constOnly) {
            super(pos);
            this.name = name;
            this.constOnly = constOnly;
        }
    }

    static final class PLit extends P {
        final String text;
        final Ast.LitKind kind;
        /** How the op reading it reads it. */
        TypeClass context;
        /** The op reading the literal, and as which operand. */
        Op consumer;

        int operand;

        PLit(Ast.Pos pos, String text, Ast.LitKind kind) {
            super(pos);
            this.text = text;
            this.kind = kind;
        }

        boolean floatSpelling() {
            return kind == Ast.LitKind.FLOAT || kind == Ast.LitKind.INF || kind == Ast.LitKind.NAN;
        }

        boolean bool() {
            return kind == Ast.LitKind.TRUE || kind == Ast.LitKind.FALSE;
        }
    }

    /** What the rule knows of a variable, over all its occurrences. */
    static final class VarInfo {
        int cls = -1;
        boolean constOnly;
        /** How the pattern first wrote it: #c (true) or c (false); null before the pattern names it. */
        Boolean firstSpelledConst;

        TypeClass annType;
        /** Its component count ({@link ComponentCheck}): -1 unknown yet, 0 the rule's width, else fixed. */
        int comps = -1;

        Ast.Pos compsPos;
        final EnumSet<TypeClass> contexts = EnumSet.noneOf(TypeClass.class);
        /**
         * Read by an integer op that computes the same bits signed or unsigned (iand, iadd …):
         * an integer, but of no particular signedness, unlike the op table's class for it.
         */
        boolean signBlind;
        /** The ops that read it (for messages), in rule order. */
        final Set<String> readers = new LinkedHashSet<>();

        boolean readAsFloat() {
            return contexts.contains(TypeClass.FLOAT);
        }

        /** Read as an integer by some op: a sign-blind one, or one that reads it signed or unsigned. */
        boolean readAsInteger() {
            return signBlind || contexts.contains(TypeClass.INT) || contexts.contains(TypeClass.UINT);
        }

        /** How the rule reads the variable: its annotation, else what the ops reading it say; null when nothing does. */
        TypeClass type() {
            if (annType != null) return annType;
            if (contexts.contains(TypeClass.FLOAT)) return TypeClass.FLOAT;
            if (contexts.contains(TypeClass.UINT) && !contexts.contains(TypeClass.INT)) return TypeClass.UINT;
            if (contexts.contains(TypeClass.INT) || contexts.contains(TypeClass.UINT)) return TypeClass.INT;
            if (contexts.contains(TypeClass.BOOL)) return TypeClass.BOOL;
            // integers are signed unless something says unsigned
            return signBlind ? TypeClass.INT : null;
        }

        /**
         * Whether the rule reads the variable as {@code t} somewhere: an op reading it so, or, for
         * an integer reading, a sign-blind op ({@code iand(a, …)} reads a's bits either way);
         * a variable annotated in the pattern is read only as annotated.
         */
        boolean readsAs(TypeClass t) {
            if (annType != null) return annType == t; // the pattern's annotation is the writer's word
            if (contexts.contains(t)) return true;
            return (t == TypeClass.INT || t == TypeClass.UINT) && readAsInteger();
        }
    }
}
