package dev.lathe.backend.isa;

import dev.lathe.backend.isa.Operand.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * The assembly text of instructions: {@link #print} gives the one canonical line of an
 * instruction, {@link #parseLine} reads a line back (any order of the prefixes, decimal or hex
 * numbers, comments after {@code ;}). The syntax is ir3's where ir3 has one:
 *
 * <pre>
 * (ss)(rpt1)add.f32 r0.x, (r)-|r1.x|, c2.y
 * cmps.f32.lt p0.x, r0.x, 0
 * mov.u32u32 r2.x, sv.local_id.x      cov.f32s32 r0.y, r1.x      mov.f32f32 r0.x, 0x3f800000
 * sel.u32 r0.x, r1.x, p0.x, r2.x      mad.f32 r0.x, r1.x, r1.y, c0.x
 * sam.f32.2d.xyzw r4.x, r0.x, t0      samlod.f32.2d.x r4.x, r0.x, r2.x, t0      getsize.u32.2d.xy r4.x, t0
 * ldg.u32.2 r0.x, b1[r1.x + 16]       stg.u32.1 b1[r1.x - 4], r2.x      ldp.u32.1 r0.x, p[8]
 * ldlv.f32.4 r0.x, in2[0]             sto.f32.4 out0[0], r0.x           bary.f32 r0.x, in1[2]
 * ldga.u32.1 r0.z, a[r0.x + 4]        stga.f32.1 a[r2.x], r1.y   (r0.x, r2.x: 64-bit addresses in pairs)
 * br !p0.x, #+4     jump #-9     kill p0.x     (rpt2)nop     end     bar
 * </pre>
 */
public final class Asm {
    private Asm() {}

    /** A syntax error at a column (1-based) of the line. */
    public static final class SyntaxError extends Exception {
        private final int column;

        public SyntaxError(int column, String message) {
            super(message);
            this.column = column;
        }

        public int column() {
            return column;
        }
    }

    // ---- printing ------------------------------------------------------------------------------

    public static String print(MInstr i) {
        return print(i, null);
    }

    /**
     * Names for register operands other than their register numbers: before register
     * allocation the operands of an instruction are placeholders for virtual registers.
     */
    public interface RegisterNames {
        /** The name of the register operand in slot {@code slot} (-1 the destination, k source k), or null for its number. */
        String name(int slot);
    }

    /** {@code i}, its register operands named by {@code names} (null: by their numbers). */
    public static String print(MInstr i, RegisterNames names) {
        StringBuilder sb = new StringBuilder();
        if (i.ss()) sb.append("(ss)");
        if (i.sy()) sb.append("(sy)");
        if (i.rpt() > 0) sb.append("(rpt").append(i.rpt()).append(')');
        if (i.nop() > 0) sb.append("(nop").append(i.nop()).append(')');
        if (i.sat()) sb.append("(sat)");
        MOp op = i.op();
        sb.append(op.base());
        switch (op.category()) {
            case 0 -> {
                switch (op) {
                    case JUMP -> sb.append(' ').append(target(i.offset()));
                    case END -> {
                        for (int k = 0; k < i.srcs().size(); k++)
                            sb.append(k == 0 ? " " : ", ").append(reg(i, k, names));
                    }
                    case BR -> sb.append(i.invert() ? " !p0.x, " : " p0.x, ").append(target(i.offset()));
                    case KILL -> sb.append(i.invert() ? " !p0.x" : " p0.x");
                    default -> {}
                }
            }
            case 1 -> {
                if (op != MOp.MOVA)
                    sb.append('.').append(i.srcType().suffix()).append(i.type().suffix());
                sb.append(' ').append(reg(i, -1, names)).append(", ").append(reg(i, 0, names));
            }
            case 2, 3, 4 -> {
                sb.append('.').append(i.type().suffix());
                if (i.cond() != null) sb.append('.').append(i.cond().text());
                sb.append(' ').append(reg(i, -1, names));
                if (op == MOp.BARY_F) {
                    sb.append(", in")
                            .append(i.src(0).value())
                            .append('[')
                            .append(i.src(1).value())
                            .append(']');
                } else {
                    for (int k = 0; k < i.srcs().size(); k++) sb.append(", ").append(reg(i, k, names));
                }
            }
            case 5 -> {
                sb.append('.')
                        .append(i.type().suffix())
                        .append('.')
                        .append(i.dim())
                        .append("d.");
                for (int c = 0; c < 4; c++) if ((i.count() & (1 << c)) != 0) sb.append("xyzw".charAt(c));
                sb.append(' ').append(reg(i, -1, names));
                if (i.src(0).kind() == Kind.REG) sb.append(", ").append(reg(i, 0, names));
                if (i.isPrefetch())
                    sb.append(", in")
                            .append(i.prefetchInput())
                            .append('[')
                            .append(i.prefetchComponent())
                            .append(']');
                if (i.src(1).kind() == Kind.REG) sb.append(", ").append(reg(i, 1, names));
                if (i.bindless()) sb.append(", b[").append(reg(i, 2, names)).append(']');
                else sb.append(", t").append(i.index());
                if (!i.bindless() && i.src(2).kind() == Kind.REG)
                    sb.append('[').append(reg(i, 2, names)).append(']');
            }
            case 6 -> {
                if (op.isImage()) {
                    sb.append('.')
                            .append(i.type().suffix())
                            .append('.')
                            .append(i.dim())
                            .append("d ");
                    String at = "i" + i.index() + "[" + reg(i, 0, names) + "]";
                    if (op == MOp.STIB) sb.append(at).append(", ").append(reg(i, 1, names));
                    else sb.append(reg(i, -1, names)).append(", ").append(at);
                    return sb.toString();
                }
                if (op.isAtomic()) {
                    sb.append('.').append(i.type().suffix());
                    if (op.isImageAtomic()) sb.append('.').append(i.dim()).append('d');
                    sb.append(' ')
                            .append(reg(i, -1, names))
                            .append(", ")
                            .append(memory(i, names))
                            .append(", ")
                            .append(reg(i, 1, names));
                    if (i.src(2).kind() == Kind.REG) sb.append(", ").append(reg(i, 2, names));
                    return sb.toString();
                }
                sb.append('.')
                        .append(i.type().suffix())
                        .append('.')
                        .append(i.count())
                        .append(' ');
                String mem = memory(i, names);
                if (op.isStore()) sb.append(mem).append(", ").append(reg(i, 1, names));
                else sb.append(reg(i, -1, names)).append(", ").append(mem);
            }
            default -> {}
        }
        return sb.toString();
    }

    private static String target(int offset) {
        return offset >= 0 ? "#+" + offset : "#" + offset;
    }

    /** Operand {@code slot} of {@code i} (-1 the destination), a register named by {@code names} when it gives a name. */
    private static String reg(MInstr i, int slot, RegisterNames names) {
        Operand o = slot < 0 ? i.dst() : i.src(slot);
        String name = names != null && o.kind() == Kind.REG ? names.name(slot) : null;
        if (name == null) return operand(o);
        if (o.abs()) name = "|" + name + "|";
        if (o.neg()) name = "-" + name;
        if (o.rep()) name = "(r)" + name;
        return name;
    }

    private static String memory(MInstr i, RegisterNames names) {
        String space = i.op().isAtomic()
                ? (i.op().isImageAtomic() ? "i" + i.index() : i.op().isSharedAtomic() ? "w" : "b" + i.index())
                : switch (i.op()) {
                    case LDG, STG -> "b" + i.index();
                    case LDGA, STGA -> "a";
                    case LDL, STL -> "l";
                    case LDLW, STLW -> "w";
                    case LDP, STP -> "p";
                    case LDC, STC -> "c";
                    case LDLV -> "in" + i.index();
                    default -> "out" + i.index();
                };
        Operand a = i.src(0);
        String inside;
        if (a.kind() == Kind.REG) {
            inside = reg(i, 0, names)
                    + (i.offset() > 0 ? " + " + i.offset() : i.offset() < 0 ? " - " + (-(long) i.offset()) : "");
        } else {
            inside = Integer.toString(i.offset());
        }
        return space + "[" + inside + "]";
    }

    public static String operand(Operand o) {
        String core = switch (o.kind()) {
            case REG -> Operand.scalarName('r', o.index());
            case CONST -> Operand.scalarName('c', o.index());
            case IMM -> o.value() > 9 ? "0x" + Long.toHexString(o.value()) : Long.toString(o.value());
            case SPECIAL -> "sv." + SysVal.ofCode(o.index()).text();
            case PRED -> "p0.x";
            case ADDR -> "a0.x";
            case RELCONST -> o.value() == 0 ? "c<a0.x>" : "c<a0.x + " + o.value() + ">";
            case NONE -> "_";
        };
        if (o.abs()) core = "|" + core + "|";
        if (o.neg()) core = "-" + core;
        if (o.rep()) core = "(r)" + core;
        return core;
    }

    // ---- parsing -------------------------------------------------------------------------------

    /** Reads one instruction; {@code line} holds no comment. */
    public static MInstr parseLine(String line) throws SyntaxError {
        Cursor c = new Cursor(line);
        boolean ss = false, sy = false, sat = false;
        int rpt = 0, nop = 0;
        c.skipSpace();
        while (c.peek() == '(') {
            int at = c.pos;
            String word = c.parenWord();
            if (word.equals("ss")) ss = true;
            else if (word.equals("sy")) sy = true;
            else if (word.equals("sat")) sat = true;
            else if (word.startsWith("rpt")) rpt = c.smallNumber(word.substring(3), at, "rpt");
            else if (word.startsWith("nop")) nop = c.smallNumber(word.substring(3), at, "nop");
            else
                throw new SyntaxError(
                        at + 1, "unknown prefix (" + word + "): expected (ss), (sy), (rptN), (nopN) or (sat)");
            c.skipSpace();
        }
        int mnemonicAt = c.pos;
        String mnemonic = c.word();
        if (mnemonic.isEmpty()) throw new SyntaxError(mnemonicAt + 1, "expected an instruction");
        String[] parts = mnemonic.split("\\.", -1);
        String base = parts[0];
        MInstr i = switch (base) {
            case "nop", "bar" -> {
                c.expectEnd();
                yield base.equals("bar") ? MInstr.bar() : MInstr.flow(MOp.NOP, false, 0);
            }
            case "end" -> {
                // end r1.y, r1.z, …: the registers holding the outputs when the shader ends
                List<Operand> regs = new ArrayList<>();
                c.skipSpace();
                while (c.peek() != '\0') {
                    if (!regs.isEmpty()) c.comma();
                    int at = c.pos;
                    Operand o = c.operand();
                    if (o.kind() != Operand.Kind.REG)
                        throw new SyntaxError(at + 1, "end reads output registers (rN.c) only");
                    regs.add(o);
                    c.skipSpace();
                }
                yield MInstr.end(regs);
            }
            case "jump" -> {
                int t = c.target();
                c.expectEnd();
                yield MInstr.flow(MOp.JUMP, false, t);
            }
            case "br" -> {
                boolean inv = c.predicate();
                c.comma();
                int t = c.target();
                c.expectEnd();
                yield MInstr.flow(MOp.BR, inv, t);
            }
            case "kill" -> {
                boolean inv = c.predicate();
                c.expectEnd();
                yield MInstr.flow(MOp.KILL, inv, 0);
            }
            case "mov", "cov" -> parseMove(c, base, parts, mnemonicAt);
            case "mova" -> {
                if (parts.length != 1) throw new SyntaxError(mnemonicAt + 1, "mova takes no type: mova a0.x, rN");
                int dAt = c.pos;
                Operand d = c.operand();
                if (d.kind() != Kind.ADDR) throw new SyntaxError(dAt + 1, "mova writes a0.x");
                c.comma();
                Operand src = c.operand();
                c.expectEnd();
                yield MInstr.mova(src);
            }
            case "sam", "samlod", "isam", "getsize" -> parseTexture(c, base, parts, mnemonicAt);
            case "ldg",
                    "stg",
                    "ldga",
                    "stga",
                    "ldl",
                    "stl",
                    "ldp",
                    "stp",
                    "ldc",
                    "stc",
                    "ldlv",
                    "sto",
                    "ldlw",
                    "stlw" -> parseMemory(c, base, parts, mnemonicAt);
            case "atomic" -> parseAtomic(c, parts, mnemonicAt);
            case "ldib", "stib" -> parseImage(c, base, parts, mnemonicAt);
            default -> parseAlu(c, base, parts, mnemonicAt);
        };
        if (rpt > 0 && i.op() == MOp.NOP) {
            i = MInstr.nop(rpt + 1);
            rpt = 0;
        }
        i = i.withRpt(i.op() == MOp.NOP ? i.rpt() : rpt).withSync(ss, sy).withNop(nop);
        if (sat) {
            // (sat) is an ALU instruction's: on any other the line is refused where it is written
            if (!(i.fields() instanceof MInstr.Alu))
                throw new SyntaxError(mnemonicAt + 1, "(sat) is for float ALU instructions");
            i = i.withSat(true);
        }
        String problem = Encoding.validate(i);
        if (problem != null) throw new SyntaxError(mnemonicAt + 1, problem);
        return i;
    }

    private static MType typeAt(String s, int at) throws SyntaxError {
        MType t = MType.ofSuffix(s);
        if (t == null)
            throw new SyntaxError(at + 1, "unknown type '" + s + "' (f16 f32 f64 u8 u16 u32 u64 s8 s16 s32 s64 b1)");
        return t;
    }

    private static MInstr parseMove(Cursor c, String base, String[] parts, int at) throws SyntaxError {
        if (parts.length != 2)
            throw new SyntaxError(at + 1, base + " is written " + base + ".SRCDST, e.g. " + base + ".f32s32");
        MType from = null, to = null;
        for (int k = 1; k < parts[1].length(); k++) {
            MType a = MType.ofSuffix(parts[1].substring(0, k)), b = MType.ofSuffix(parts[1].substring(k));
            if (a != null && b != null) {
                from = a;
                to = b;
            }
        }
        if (from == null)
            throw new SyntaxError(at + base.length() + 2, "'" + parts[1] + "' is not two types (source, destination)");
        Operand d = c.operand();
        c.comma();
        Operand s = c.operand();
        c.expectEnd();
        if (s.kind() == Kind.IMM && s.value() < 0) s = Operand.imm(s.value() & 0xffffffffL);
        return MInstr.of(
                base.equals("mov") ? MOp.MOV : MOp.COV,
                to,
                from,
                null,
                0,
                false,
                false,
                0,
                false,
                false,
                d,
                List.of(s),
                0,
                0,
                0,
                0);
    }

    private static MInstr parseAlu(Cursor c, String base, String[] parts, int at) throws SyntaxError {
        if (parts.length < 2) throw new SyntaxError(at + 1, "'" + base + "' needs a type, e.g. " + base + ".f32");
        MType t = typeAt(parts[1], at + base.length() + 1);
        MOp op = MOp.of(base, t);
        if (op == null || op.category() < 2 || op.category() > 4) {
            boolean known = false;
            for (MOp o : MOp.values()) known |= o.base().equals(base) && o.category() >= 2 && o.category() <= 4;
            throw new SyntaxError(
                    at + 1, known ? base + " does not take type " + t.suffix() : "unknown instruction '" + base + "'");
        }
        Cond cond = null;
        boolean cmps = op == MOp.CMPS_F || op == MOp.CMPS_U || op == MOp.CMPS_S;
        if (cmps) {
            if (parts.length != 3 || Cond.ofText(parts[2]) == null) {
                throw new SyntaxError(
                        at + 1, "cmps needs a condition: cmps." + t.suffix() + ".lt (lt ge eq ne ltu geu equ)");
            }
            cond = Cond.ofText(parts[2]);
        } else if (parts.length != 2) {
            throw new SyntaxError(at + 1, "unexpected '." + parts[2] + "' after " + base + "." + t.suffix());
        }
        Operand d = c.operand();
        List<Operand> srcs = new ArrayList<>();
        if (op == MOp.BARY_F) {
            c.comma();
            int[] slot = c.slot("in");
            srcs.add(Operand.imm(slot[0]));
            srcs.add(Operand.imm(slot[1]));
        } else {
            for (int k = 0; k < op.numSrcs(); k++) {
                c.comma();
                srcs.add(c.operand());
            }
        }
        c.expectEnd();
        return MInstr.of(op, t, null, cond, 0, false, false, 0, false, false, d, srcs, 0, 0, 0, 0);
    }

    private static MInstr parseTexture(Cursor c, String base, String[] parts, int at) throws SyntaxError {
        if (parts.length != 4 || !parts[2].matches("[1234]d") || !parts[3].matches("x?y?z?w?") || parts[3].isEmpty()) {
            throw new SyntaxError(
                    at + 1, base + " is written " + base + ".TYPE.Nd.MASK, e.g. " + base + ".f32.2d.xyzw");
        }
        MType t = typeAt(parts[1], at + base.length() + 1);
        int mask = 0;
        for (char ch : parts[3].toCharArray()) mask |= 1 << "xyzw".indexOf(ch);
        MOp op = switch (base) {
            case "sam" -> MOp.SAM;
            case "samlod" -> MOp.SAMLOD;
            case "isam" -> MOp.ISAM;
            default -> MOp.GETSIZE;
        };
        Operand d = c.operand();
        Operand coord = Operand.NONE, lod = Operand.NONE;
        if (op != MOp.GETSIZE) {
            c.comma();
            c.skipSpace();
            if (op == MOp.SAM && c.s.startsWith("in", c.pos)) {
                // a prefetch: the coordinates are an input's, interpolated before the shader starts
                int[] slot = c.slot("in");
                coord = Operand.imm(slot[0] * 4L + slot[1]);
            } else {
                coord = c.operand();
            }
        }
        if (op == MOp.SAMLOD) {
            c.comma();
            lod = c.operand();
        }
        c.comma();
        c.skipSpace();
        int slotAt = c.pos;
        if (c.s.startsWith("b[", c.pos)) {
            // bindless: the heap's descriptor the register names
            c.pos += 2;
            Operand heap = c.operand();
            c.skipSpace();
            if (c.peek() != ']') throw new SyntaxError(c.pos + 1, "expected ']'");
            c.pos++;
            c.expectEnd();
            return MInstr.bindlessTexture(op, t, parts[2].charAt(0) - '0', mask, d, coord, lod, heap);
        }
        if (!c.s.startsWith("t", c.pos)) throw new SyntaxError(slotAt + 1, "expected tN, tN[rI] or b[rI]");
        c.pos++;
        long texture = c.number(slotAt);
        if (texture >= Encoding.MAX_SLOT) throw new SyntaxError(slotAt + 1, "t" + texture + ": the index is 0 to 31");
        Operand index = Operand.NONE;
        if (c.peek() == '[') {
            // an element of an array of textures: texture N plus the register's value
            c.pos++;
            index = c.operand();
            c.skipSpace();
            if (c.peek() != ']') throw new SyntaxError(c.pos + 1, "expected ']'");
            c.pos++;
        }
        c.expectEnd();
        return MInstr.texture(op, t, parts[2].charAt(0) - '0', mask, d, coord, lod, (int) texture, index);
    }

    private static MInstr parseMemory(Cursor c, String base, String[] parts, int at) throws SyntaxError {
        if (parts.length != 3 || !parts[2].matches("[1-4]")) {
            throw new SyntaxError(at + 1, base + " is written " + base + ".TYPE.COUNT, e.g. " + base + ".u32.1");
        }
        MType t = typeAt(parts[1], at + base.length() + 1);
        MOp op = MOp.valueOf(base.toUpperCase());
        int count = parts[2].charAt(0) - '0';
        MemOperands a = access(c, op.isStore());
        Operand dst = a.dst, data = a.data;
        Mem m = a.mem;
        String want = switch (op) {
            case LDG, STG -> "b";
            case LDGA, STGA -> "a";
            case LDL, STL -> "l";
            case LDLW, STLW -> "w";
            case LDP, STP -> "p";
            case LDC, STC -> "c";
            case LDLV -> "in";
            default -> "out";
        };
        if (!m.space.equals(want)) {
            throw new SyntaxError(
                    m.at + 1,
                    base + " addresses " + want + (want.length() > 1 || want.equals("b") ? "N" : "") + "[...], not "
                            + m.space + "[...]");
        }
        return MInstr.memory(op, t, count, dst, m.address, data, m.index, m.offset);
    }

    /** {@code ldib.TYPE.Nd dst, iN[rC]} and {@code stib.TYPE.Nd iN[rC], src}. */
    private static MInstr parseImage(Cursor c, String base, String[] parts, int at) throws SyntaxError {
        if (parts.length != 3 || !parts[2].matches("[123]d")) {
            throw new SyntaxError(at + 1, base + " is written " + base + ".TYPE.Nd, e.g. " + base + ".f32.2d");
        }
        MType t = typeAt(parts[1], at + base.length() + 1);
        MOp op = base.equals("ldib") ? MOp.LDIB : MOp.STIB;
        if (!op.types().allows(t))
            throw new SyntaxError(at + 1, base + " moves f32, u32 or s32 texels, not " + t.suffix());
        MemOperands a = access(c, op == MOp.STIB);
        Operand dst = a.dst, data = a.data;
        Mem m = a.mem;
        if (!m.space.equals("i"))
            throw new SyntaxError(m.at + 1, base + " addresses iN[...], not " + m.space + "[...]");
        if (m.address.kind() != Kind.REG || m.offset != 0)
            throw new SyntaxError(m.at + 1, "images are addressed by coordinate registers, with no offset");
        return MInstr.image(op, t, parts[2].charAt(0) - '0', dst, m.address, data, m.index);
    }

    /** {@code atomic.OP.TYPE dst, b1[rA] or w[rA], data[, compare]}. */
    private static MInstr parseAtomic(Cursor c, String[] parts, int at) throws SyntaxError {
        List<String> ops = List.of("add", "min", "max", "and", "or", "xor", "xchg", "cmpxchg");
        if (parts.length < 3
                || parts.length > 4
                || !ops.contains(parts[1])
                || parts.length == 4 && !parts[3].matches("[123]d")) {
            throw new SyntaxError(
                    at + 1,
                    "atomics are written atomic.OP.TYPE (OP: " + String.join(" ", ops)
                            + "), e.g. atomic.add.u32; on images atomic.OP.TYPE.Nd");
        }
        int dim = parts.length == 4 ? parts[3].charAt(0) - '0' : 0;
        MType t = typeAt(parts[2], at + parts[0].length() + parts[1].length() + 2);
        Operand dst = c.operand();
        c.comma();
        Mem m = c.memory();
        if (!m.space.equals("b") && !m.space.equals("w") && !m.space.equals("i")) {
            throw new SyntaxError(m.at + 1, "atomics address bN[...], w[...] or iN[...], not " + m.space + "[...]");
        }
        if (m.space.equals("i") != (dim != 0))
            throw new SyntaxError(
                    at + 1,
                    dim != 0
                            ? "only image atomics (iN[...]) have dimensions"
                            : "image atomics are written atomic.OP.TYPE.Nd");
        if (m.address.kind() != Kind.REG || m.offset != 0)
            throw new SyntaxError(m.at + 1, "atomics address a register, with no offset");
        c.comma();
        Operand data = c.operand();
        Operand compare = Operand.NONE;
        if (parts[1].equals("cmpxchg")) {
            c.comma();
            compare = c.operand();
        }
        c.expectEnd();
        MOp op = MOp.of(
                6,
                (m.space.equals("i")
                                ? MOp.ATOMIC_ADD_I.code()
                                : m.space.equals("w") ? MOp.ATOMIC_ADD_W.code() : MOp.ATOMIC_ADD_B.code())
                        + ops.indexOf(parts[1]));
        if (!op.types().allows(t)) throw new SyntaxError(at + 1, "atomics work on u32 or s32, not " + t.suffix());
        return MInstr.atomic(op, t, dst, m.address, data, compare, m.index, dim);
    }

    /** The operands of a memory access: {@code dst, MEM} for a load, {@code MEM, data} for a store. */
    private record MemOperands(Operand dst, Operand data, Mem mem) {}

    private static MemOperands access(Cursor c, boolean store) throws SyntaxError {
        if (store) {
            Mem m = c.memory();
            c.comma();
            Operand data = c.operand();
            c.expectEnd();
            return new MemOperands(Operand.NONE, data, m);
        }
        Operand dst = c.operand();
        c.comma();
        Mem m = c.memory();
        c.expectEnd();
        return new MemOperands(dst, Operand.NONE, m);
    }

    private record Mem(String space, int index, Operand address, int offset, int at) {}

    /** Reads one line left to right. */
    private static final class Cursor {
        final String s;
        int pos;

        Cursor(String s) {
            this.s = s;
        }

        char peek() {
            return pos < s.length() ? s.charAt(pos) : '\0';
        }

        void skipSpace() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) pos++;
        }

        String parenWord() throws SyntaxError {
            int start = pos++;
            int close = s.indexOf(')', pos);
            if (close < 0) throw new SyntaxError(start + 1, "unclosed '('");
            String w = s.substring(pos, close);
            pos = close + 1;
            return w;
        }

        int smallNumber(String digits, int at, String what) throws SyntaxError {
            if (!digits.matches("[0-3]"))
                throw new SyntaxError(
                        at + 1,
                        "(" + what + digits + "): the " + (what.equals("rpt") ? "repeat" : "nop") + " count is 0 to 3");
            return digits.charAt(0) - '0';
        }

        String word() {
            int start = pos;
            while (pos < s.length()
                    && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '.' || s.charAt(pos) == '_'))
                pos++;
            return s.substring(start, pos);
        }

        void comma() throws SyntaxError {
            skipSpace();
            if (peek() != ',')
                throw new SyntaxError(pos + 1, peek() == '\0' ? "missing operand: expected ','" : "expected ','");
            pos++;
            skipSpace();
        }

        void expectEnd() throws SyntaxError {
            skipSpace();
            if (pos < s.length()) throw new SyntaxError(pos + 1, "unexpected '" + s.substring(pos) + "'");
        }

        boolean predicate() throws SyntaxError {
            skipSpace();
            boolean inv = false;
            if (peek() == '!') {
                inv = true;
                pos++;
            }
            int at = pos;
            if (!word().equals("p0.x")) throw new SyntaxError(at + 1, "expected p0.x");
            return inv;
        }

        int target() throws SyntaxError {
            skipSpace();
            int at = pos;
            if (peek() != '#') throw new SyntaxError(at + 1, "expected a target #+N or #-N");
            pos++;
            char sign = peek();
            if (sign != '+' && sign != '-') throw new SyntaxError(pos + 1, "a target is #+N or #-N");
            pos++;
            long v = number(at);
            if (v > Integer.MAX_VALUE) throw new SyntaxError(at + 1, "target out of range");
            return (int) (sign == '-' ? -v : v);
        }

        long number(int at) throws SyntaxError {
            int start = pos;
            String w = word();
            try {
                long v = w.startsWith("0x") || w.startsWith("0X")
                        ? Long.parseUnsignedLong(w.substring(2), 16)
                        : Long.parseLong(w);
                if (v < 0 || v > 0xffffffffL) throw new NumberFormatException();
                return v;
            } catch (NumberFormatException e) {
                throw new SyntaxError(
                        start + 1, w.isEmpty() ? "expected a number" : "'" + w + "' is not a number that fits 32 bits");
            }
        }

        /** {@code NAME N} or {@code NAME N[C]}: returns {N, C}. */
        int[] slot(String name) throws SyntaxError {
            skipSpace();
            int at = pos;
            if (!s.startsWith(name, pos)) throw new SyntaxError(at + 1, "expected " + name + "N");
            pos += name.length();
            long n = number(at);
            if (n >= Encoding.MAX_SLOT) throw new SyntaxError(at + 1, name + n + ": the index is 0 to 31");
            long comp = 0;
            if (peek() == '[') {
                pos++;
                comp = number(pos);
                if (peek() != ']') throw new SyntaxError(pos + 1, "expected ']'");
                pos++;
            }
            return new int[] {(int) n, (int) Math.min(comp, Integer.MAX_VALUE)};
        }

        Mem memory() throws SyntaxError {
            skipSpace();
            int at = pos;
            int start = pos;
            while (pos < s.length() && Character.isLetter(s.charAt(pos))) pos++;
            String space = s.substring(start, pos);
            int index = 0;
            if (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                long n = number(at);
                if (n >= Encoding.MAX_SLOT) throw new SyntaxError(at + 1, space + n + ": the index is 0 to 31");
                index = (int) n;
            }
            if (peek() != '[') throw new SyntaxError(pos + 1, "expected '[' (an address such as b0[r1.x + 4])");
            pos++;
            skipSpace();
            Operand addr = Operand.NONE;
            long off = 0;
            if (peek() == 'r') {
                addr = operand();
                skipSpace();
                if (peek() == '+' || peek() == '-') {
                    boolean neg = peek() == '-';
                    pos++;
                    skipSpace();
                    off = number(pos);
                    if (neg) off = -off;
                }
            } else {
                boolean neg = peek() == '-';
                if (neg) pos++;
                off = number(pos);
                if (neg) off = -off;
            }
            skipSpace();
            if (peek() != ']') throw new SyntaxError(pos + 1, "expected ']'");
            pos++;
            long lim = 1L << (Encoding.OFFSET_BITS - 1);
            if (off < -lim || off >= lim)
                throw new SyntaxError(at + 1, "offset " + off + " does not fit " + Encoding.OFFSET_BITS + " bits");
            return new Mem(space, index, addr, (int) off, at);
        }

        Operand operand() throws SyntaxError {
            skipSpace();
            int at = pos;
            boolean rep = false, neg = false, abs = false;
            if (s.startsWith("(r)", pos)) {
                rep = true;
                pos += 3;
            }
            if (peek() == '-') {
                neg = true;
                pos++;
            }
            if (peek() == '|') {
                abs = true;
                pos++;
            }
            int coreAt = pos;
            Operand o;
            char ch = peek();
            if (Character.isDigit(ch)) {
                long v = number(coreAt);
                if (neg && !abs) {
                    neg = false;
                    v = -v;
                }
                o = Operand.imm(v);
            } else if (s.startsWith("c<a0.x", pos)) {
                pos += 6;
                skipSpace();
                long n = 0;
                if (peek() == '+') {
                    pos++;
                    skipSpace();
                    n = number(pos);
                }
                skipSpace();
                if (peek() != '>') throw new SyntaxError(pos + 1, "expected '>' closing c<a0.x + N>");
                pos++;
                if (n >= Encoding.MAX_CONST)
                    throw new SyntaxError(
                            coreAt + 1, "c<a0.x + " + n + ">: the offset is 0 to " + (Encoding.MAX_CONST - 1));
                o = Operand.relConst((int) n);
            } else {
                String w = word();
                if (w.equals("a0.x")) {
                    o = Operand.A0;
                } else if (w.startsWith("sv.")) {
                    SysVal v = SysVal.ofText(w.substring(3));
                    if (v == null) throw new SyntaxError(coreAt + 1, "unknown system value '" + w + "'");
                    o = Operand.special(v);
                } else if (w.equals("p0.x")) {
                    o = Operand.P0;
                } else if (w.matches("[rc][0-9]+\\.[xyzw]")) {
                    int n = Integer.parseInt(w.substring(1, w.length() - 2));
                    int i = n * 4 + "xyzw".indexOf(w.charAt(w.length() - 1));
                    if (w.charAt(0) == 'r' && i >= Operand.NUM_REGS)
                        throw new SyntaxError(coreAt + 1, "no register " + w + " (r0.x to r47.w)");
                    if (w.charAt(0) == 'c' && i >= Encoding.MAX_CONST)
                        throw new SyntaxError(coreAt + 1, "no constant " + w + " (c0.x to c511.w)");
                    o = w.charAt(0) == 'r' ? Operand.reg(i) : Operand.constant(i);
                } else {
                    throw new SyntaxError(
                            coreAt + 1,
                            w.isEmpty()
                                    ? "expected an operand"
                                    : "'" + w + "' is not an operand (r0.x, c0.x, an immediate, sv.NAME, p0.x)");
                }
            }
            if (abs) {
                if (peek() != '|') throw new SyntaxError(pos + 1, "expected '|'");
                pos++;
            }
            if ((rep || neg || abs)
                    && o.kind() != Kind.REG
                    && o.kind() != Kind.CONST
                    && o.kind() != Kind.RELCONST
                    && o.kind() != Kind.IMM) {
                throw new SyntaxError(at + 1, "modifiers apply to registers and constants");
            }
            return new Operand(o.kind(), o.value(), neg, abs, rep);
        }
    }
}
