package dev.lathe.ir.text;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.BaseType;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.ImageFormat;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.IrBuilder;
import dev.lathe.ir.JumpInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.SourceLoc;
import dev.lathe.ir.Stage;
import dev.lathe.ir.Swizzle;
import dev.lathe.ir.TextureDim;
import dev.lathe.ir.UndefInstr;
import dev.lathe.ir.Value;
import dev.lathe.ir.VarType;
import dev.lathe.ir.Variable;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.Op;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the IR text format ({@code ir/README.md}) into a {@link Shader}.
 *
 * <p>The parser builds the IR as it reads, with an explicit stack for nested {@code if} and
 * {@code loop} (no recursion, so any nesting depth is fine). Values may be used before their
 * definition (phis of loop headers need it): a use of an unknown name gets a placeholder that
 * is replaced when the definition arrives. The first error stops parsing with a located
 * {@link Diagnostic}. Structural and type rules beyond the syntax are the validator's job.
 */
public final class IrParser {
    private final String file;
    private final String text;
    private final Lexer lexer;
    /** Lookahead: tokens read from the lexer but not consumed yet (at most two). */
    private final ArrayDeque<Token> ahead = new ArrayDeque<>();
    private Shader shader;

    // per function
    private Function fn;
    private IrBuilder b;
    private Map<String, Value> values;
    private Map<String, Value> placeholders;
    private Map<String, Token> firstUse;
    private Map<String, Block> labels;
    private List<PendingPhi> pendingPhis;
    private boolean blockStarted;

    private record PendingPhi(PhiInstr phi, Token label, Token value) {}

    private enum OpenKind { THEN, ELSE, LOOP }

    private record Open(OpenKind kind, IfNode ifNode, LoopNode loop) {}

    private IrParser(String file, String text) {
        this.file = file;
        this.text = text;
        this.lexer = new Lexer(file, text);
    }

    /** Parses a whole shader; {@code file} names the source in diagnostics. */
    public static Shader parse(String file, String text) {
        return new IrParser(file, text).shader();
    }

    // ---- token helpers ------------------------------------------------------------------------

    private Token peek() {
        return peek(0);
    }

    private Token peek(int k) {
        while (ahead.size() <= k) ahead.addLast(lexer.nextToken());
        int i = 0;
        for (Token t : ahead) {
            if (i++ == k) return t;
        }
        throw new IllegalStateException();
    }

    private Token advance() {
        Token t = peek();
        if (t.kind() != Token.Kind.EOF) ahead.removeFirst();
        return t;
    }

    private boolean accept(String s) {
        if (peek().is(s)) {
            advance();
            return true;
        }
        return false;
    }

    private Token expect(String s) {
        Token t = peek();
        if (!t.is(s)) throw error(t, "expected '" + s + "', found " + t.describe());
        return advance();
    }

    private Token expect(Token.Kind kind, String what) {
        Token t = peek();
        if (t.kind() != kind) throw error(t, "expected " + what + ", found " + t.describe());
        return advance();
    }

    private IrSyntaxException error(Token t, String msg) {
        return new IrSyntaxException(Diagnostic.error(file, t.line(), t.column(), msg, Diagnostic.lineOf(text, t.line())));
    }

    private SourceLoc loc(Token t) {
        return new SourceLoc(file, t.line(), t.column());
    }

    // ---- shader -------------------------------------------------------------------------------

    private Shader shader() {
        Token kw = peek();
        if (!kw.is("shader")) throw error(kw, "expected 'shader vertex|fragment|compute' at the start of the file");
        advance();
        Token st = expect(Token.Kind.IDENT, "a stage (vertex, fragment or compute)");
        Stage stage = Stage.parse(st.text());
        if (stage == null) throw error(st, "unknown stage '" + st.text() + "' (expected vertex, fragment or compute)");
        shader = new Shader(stage);
        if (peek().is("workgroup_size")) {
            Token w = advance();
            if (stage != Stage.COMPUTE) throw error(w, "workgroup_size is only for compute shaders");
            expect("(");
            int x = positiveInt(advance(), "workgroup size");
            expect(",");
            int y = positiveInt(advance(), "workgroup size");
            expect(",");
            int z = positiveInt(advance(), "workgroup size");
            expect(")");
            String problem = Shader.workgroupSizeProblem(x, y, z);
            if (problem != null) throw error(w, problem);
            shader.setWorkgroupSize(x, y, z);
        }
        while (true) {
            Token t = peek();
            if (t.is("input") || t.is("output") || t.is("uniform") || t.is("buffer") || t.is("texture") || t.is("shared") || t.is("image")) {
                declaration();
            } else {
                break;
            }
        }
        if (!peek().is("function")) {
            throw error(peek(), "expected a declaration (input, output, uniform, buffer, texture, image, shared) or 'function', found "
                    + peek().describe());
        }
        while (peek().is("function")) function();
        if (peek().kind() != Token.Kind.EOF) throw error(peek(), "expected 'function' or end of file, found " + peek().describe());
        boolean hasMain = false;
        for (Function f : shader.functions()) hasMain |= f.name().equals("main");
        if (!hasMain) throw error(peek(), "the shader has no function named main");
        return shader;
    }

    private int positiveInt(Token t, String what) {
        int v = nonNegativeInt(t, what);
        if (v == 0) throw error(t, what + " must be positive");
        return v;
    }

    private int nonNegativeInt(Token t, String what) {
        if (t.kind() != Token.Kind.NUMBER || !t.text().chars().allMatch(Character::isDigit)) {
            throw error(t, "expected a non-negative integer for the " + what + ", found " + t.describe());
        }
        try {
            int v = Integer.parseInt(t.text());
            if (v > Variable.MAX_NUMBER) throw error(t, what + " " + v + " is too large");
            return v;
        } catch (NumberFormatException e) {
            throw error(t, what + " " + t.text() + " is too large");
        }
    }

    private VarType type() {
        Token t = expect(Token.Kind.IDENT, "a type such as 'vec4 f32' or 'u32'");
        int comps = 1;
        Token scalar = t;
        if (t.text().startsWith("vec")) {
            comps = vecCount(t);
            scalar = expect(Token.Kind.IDENT, "a scalar type such as f32, i32, u8 or b1");
        }
        VarType vt = VarType.parseScalar(scalar.text(), comps);
        if (vt == null) {
            throw error(scalar, "unknown type '" + scalar.text() + "' (expected f16/f32/f64, i8–i64, u8–u64 or b1)");
        }
        return vt;
    }

    private static boolean allDigits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) return false;
        }
        return true;
    }

    private int vecCount(Token t) {
        int c;
        try {
            c = Integer.parseInt(t.text(), 3, t.text().length(), 10);
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw error(t, "expected vecN (N = 1, 2, 3, 4, 8 or 16), found " + t.describe());
        }
        if (!Value.isValidComponentCount(c)) throw error(t, "a vector has 1, 2, 3, 4, 8 or 16 components, not " + c);
        return c;
    }

    private Token symbolName() {
        return expect(Token.Kind.SYMBOL, "a variable name such as @color");
    }

    private int arraySuffix() {
        if (!accept("[")) return 0;
        int n = positiveInt(advance(), "array length");
        expect("]");
        return n;
    }

    /** Attributes: {@code key=value} and flags, in any order. */
    private Map<String, Integer> attributes(List<String> allowedKeys, List<String> allowedFlags) {
        Map<String, Integer> out = new LinkedHashMap<>();
        while (peek().kind() == Token.Kind.IDENT
                && (allowedKeys.contains(peek().text()) || allowedFlags.contains(peek().text()))) {
            Token k = advance();
            if (out.containsKey(k.text())) throw error(k, "'" + k.text() + "' is given twice");
            if (allowedFlags.contains(k.text())) {
                out.put(k.text(), 1);
            } else {
                expect("=");
                out.put(k.text(), nonNegativeInt(advance(), k.text()));
            }
        }
        Token t = peek();
        if (t.kind() == Token.Kind.IDENT && peek(1).is("=")) {
            throw error(t, "unknown attribute '" + t.text() + "' (expected " + String.join(", ", allowedKeys) + ")");
        }
        return out;
    }

    private void declaration() {
        Token kw = advance();
        try {
            switch (kw.text()) {
                case "input" -> {
                    VarType t = type();
                    Token name = symbolName();
                    Map<String, Integer> a = attributes(List.of("location"), List.of("flat"));
                    int loc = a.getOrDefault("location", nextLocation(Variable.Kind.INPUT));
                    add(name, Variable.input(name.text(), t, loc, a.containsKey("flat")));
                }
                case "output" -> {
                    VarType t = type();
                    Token name = symbolName();
                    Map<String, Integer> a = attributes(List.of("location"), List.of());
                    int loc = a.getOrDefault("location", nextLocation(Variable.Kind.OUTPUT));
                    add(name, Variable.output(name.text(), t, loc));
                }
                case "uniform" -> {
                    VarType t = type();
                    Token name = symbolName();
                    int len = arraySuffix();
                    Map<String, Integer> a = attributes(List.of("location"), List.of());
                    int loc = a.getOrDefault("location", shader.nextUniformLocation());
                    add(name, Variable.uniform(name.text(), t, len, loc));
                }
                case "buffer" -> {
                    VarType t = type();
                    Token name = symbolName();
                    Map<String, Integer> a = attributes(List.of("binding"), List.of());
                    int bind = a.getOrDefault("binding", nextBinding(Variable.Kind.BUFFER));
                    add(name, Variable.buffer(name.text(), t, bind));
                }
                case "shared" -> {
                    if (shader.stage() != Stage.COMPUTE) throw error(kw, "shared variables exist only in compute shaders");
                    VarType t = type();
                    Token name = symbolName();
                    int len = arraySuffix();
                    attributes(List.of(), List.of());
                    add(name, Variable.shared(name.text(), t, len));
                }
                case "image" -> {
                    Token dimTok = expect(Token.Kind.IDENT, "an image dimension (1d, 2d or 3d)");
                    TextureDim dim = TextureDim.parse(dimTok.text());
                    if (dim == null) throw error(dimTok, "unknown image dimension '" + dimTok.text() + "' (expected 1d, 2d or 3d)");
                    VarType t = type();
                    if (t.components() != 1 || t.bitSize() != 32 || t.base() == BaseType.BOOL) {
                        throw error(dimTok, "an image's texel type is f32, i32 or u32 (texels are 4 components)");
                    }
                    Token name = symbolName();
                    List<String> formats = new ArrayList<>();
                    for (ImageFormat f : ImageFormat.values()) formats.add(f.spelling());
                    Token fmtTok = peek();
                    Map<String, Integer> a = attributes(List.of("binding"), formats);
                    ImageFormat format = ImageFormat.full(t.base());
                    for (String k : a.keySet()) if (!k.equals("binding")) format = ImageFormat.byName(k);
                    if (a.size() > (a.containsKey("binding") ? 2 : 1)) throw error(fmtTok, "an image has one format");
                    if (format.base() != t.base()) {
                        throw error(name, "format " + format.spelling() + " holds " + format.base().name().toLowerCase(Locale.ROOT)
                                + " texels, not " + t.scalarName());
                    }
                    int bind = a.getOrDefault("binding", nextBinding(Variable.Kind.IMAGE));
                    add(name, Variable.image(name.text(), dim, format, bind));
                }
                default -> { // texture
                    Token dimTok = expect(Token.Kind.IDENT, "a texture dimension (1d, 2d or 3d)");
                    TextureDim dim = TextureDim.parse(dimTok.text());
                    if (dim == null) throw error(dimTok, "unknown texture dimension '" + dimTok.text() + "' (expected 1d, 2d or 3d)");
                    VarType t = type();
                    if (t.components() != 1 || t.bitSize() != 32 || t.base() == BaseType.BOOL) {
                        throw error(dimTok, "a texture's texel type is f32, i32 or u32 (texels are 4 components)");
                    }
                    Token name = symbolName();
                    int len = arraySuffix();
                    Map<String, Integer> a = attributes(List.of("binding"), List.of("unorm"));
                    boolean unorm = a.containsKey("unorm");
                    if (unorm && t.base() != BaseType.FLOAT) throw error(name, "only f32 textures can be unorm");
                    int bind = a.getOrDefault("binding", nextBinding(Variable.Kind.TEXTURE));
                    add(name, Variable.texture(name.text(), dim, t.base(), bind, unorm, len));
                }
            }
        } catch (IllegalArgumentException e) {
            throw error(kw, e.getMessage());
        }
    }

    private void add(Token name, Variable v) {
        if (shader.variable(v.name()) != null) throw error(name, "@" + v.name() + " is already declared");
        v.setLoc(loc(name));
        try {
            shader.addVariable(v);
        } catch (IllegalArgumentException e) {
            throw error(name, e.getMessage());
        }
    }

    private int nextLocation(Variable.Kind kind) {
        int next = 0;
        for (Variable v : shader.variables(kind)) next = Math.max(next, v.location() + 1);
        return next;
    }

    private int nextBinding(Variable.Kind kind) {
        int next = 0;
        for (Variable v : shader.variables(kind)) next = Math.max(next, v.binding() + 1);
        return next;
    }

    // ---- functions ----------------------------------------------------------------------------

    private void function() {
        expect("function");
        Token name = expect(Token.Kind.IDENT, "a function name");
        for (Function f : shader.functions()) {
            if (f.name().equals(name.text())) throw error(name, "function " + name.text() + " is already defined");
        }
        fn = shader.addFunction(name.text());
        b = new IrBuilder(fn);
        values = new HashMap<>();
        placeholders = new HashMap<>();
        firstUse = new HashMap<>();
        labels = new HashMap<>();
        pendingPhis = new ArrayList<>();
        blockStarted = false;
        expect("{");
        while (peek().is("local")) local();
        body();
        finishFunction();
    }

    private void local() {
        advance();
        VarType t = type();
        Token name = symbolName();
        int len = arraySuffix();
        if (shader.variable(name.text()) != null || fn.local(name.text()) != null) {
            throw error(name, "@" + name.text() + " is already declared");
        }
        fn.addLocal(Variable.local(name.text(), t, len));
    }

    private void body() {
        List<Open> open = new ArrayList<>();
        while (true) {
            Token t = peek();
            if (t.kind() == Token.Kind.EOF) throw error(t, "unexpected end of file: missing '}'");
            if (t.is("}")) {
                advance();
                if (open.isEmpty()) return;
                Open o = open.remove(open.size() - 1);
                switch (o.kind()) {
                    case THEN -> {
                        if (accept("else")) {
                            expect("{");
                            b.pushElse(o.ifNode());
                            open.add(new Open(OpenKind.ELSE, o.ifNode(), null));
                        } else {
                            b.popIf(o.ifNode());
                        }
                    }
                    case ELSE -> b.popIf(o.ifNode());
                    case LOOP -> b.popLoop(o.loop());
                }
                blockStarted = false;
            } else if (t.is("block")) {
                label();
            } else if (t.is("if")) {
                advance();
                Token c = expect(Token.Kind.VALUE, "a condition value such as %3");
                if (peek().is(".")) throw error(peek(), "an if condition takes a whole 1-component value (no swizzle)");
                Value cond = ref(c);
                expect("{");
                IfNode in = fn.insertIf(b.block(), null, cond);
                in.setLoc(loc(t));
                b.atEnd(in.thenList().lastBlock());
                open.add(new Open(OpenKind.THEN, in, null));
                blockStarted = false;
            } else if (t.is("loop")) {
                advance();
                expect("{");
                LoopNode loop = fn.insertLoop(b.block(), null);
                loop.setLoc(loc(t));
                b.atEnd(loop.body().lastBlock());
                open.add(new Open(OpenKind.LOOP, null, loop));
                blockStarted = false;
            } else if (t.is("break") || t.is("continue") || t.is("return")) {
                advance();
                JumpInstr j = new JumpInstr(JumpInstr.Kind.valueOf(t.text().toUpperCase(Locale.ROOT)));
                j.setLoc(loc(t));
                b.block().append(j);
                blockStarted = true;
            } else if (t.kind() == Token.Kind.IDENT && t.text().startsWith("vec")) {
                definition();
                blockStarted = true;
            } else if (t.kind() == Token.Kind.IDENT) {
                statement();
                blockStarted = true;
            } else {
                throw error(t, "expected an instruction, 'block', 'if', 'loop' or '}', found " + t.describe());
            }
        }
    }

    private void label() {
        Token kw = advance();
        Token name = expect(Token.Kind.IDENT, "a block name such as b3");
        expect(":");
        if (blockStarted) {
            throw error(kw, "block " + name.text() + " would start inside another block: a new block begins only "
                    + "after '{', '}' or at the start of a function");
        }
        if (labels.containsKey(name.text())) throw error(name, "block " + name.text() + " is already defined");
        labels.put(name.text(), b.block());
        b.block().setLabel(name.text());
        blockStarted = true;
    }

    private void finishFunction() {
        for (PendingPhi pp : pendingPhis) {
            Block pred = blockByName(pp.label().text());
            if (pred == null) throw error(pp.label(), "unknown block " + pp.label().text());
            Value v = values.get(pp.value().text());
            if (v == null) throw error(pp.value(), "undefined value %" + pp.value().text());
            if (pp.phi().srcFor(pred) != null) {
                throw error(pp.label(), "the phi already has a source for block " + pp.label().text());
            }
            pp.phi().addSrc(pred, v);
        }
        if (!placeholders.isEmpty()) {
            Token worst = null;
            for (String name : placeholders.keySet()) {
                Token t = firstUse.get(name);
                if (worst == null || t.line() < worst.line() || (t.line() == worst.line() && t.column() < worst.column())) {
                    worst = t;
                }
            }
            throw error(worst, "undefined value %" + worst.text());
        }
    }

    /**
     * A block by label; failing that, {@code bN} names the block at index N in program order
     * (the name the printer gives it), so unlabeled blocks can be referred to as well.
     */
    private Block blockByName(String name) {
        Block b = labels.get(name);
        if (b != null) return b;
        if (name.length() > 1 && name.charAt(0) == 'b' && name.substring(1).chars().allMatch(Character::isDigit)
                && name.length() < 10) {
            int idx = Integer.parseInt(name.substring(1));
            List<Block> blocks = fn.blocks();
            if (idx < blocks.size()) return blocks.get(idx);
        }
        return null;
    }

    // ---- values -------------------------------------------------------------------------------

    private Value ref(Token t) {
        Value v = values.get(t.text());
        if (v != null) return v;
        Value ph = placeholders.get(t.text());
        if (ph == null) {
            // A stand-in until the definition is read; it is never inserted in a block.
            ph = new UndefInstr(fn, 16, 64).def();
            placeholders.put(t.text(), ph);
            firstUse.put(t.text(), t);
        }
        return ph;
    }

    private void define(Token name, Value v) {
        if (values.containsKey(name.text())) throw error(name, "value %" + name.text() + " is defined twice");
        Value ph = placeholders.remove(name.text());
        if (ph != null) ph.replaceAllUsesWith(v);
        values.put(name.text(), v);
    }

    // ---- instructions -------------------------------------------------------------------------

    private void definition() {
        Token start = advance();
        int comps = vecCount(start);
        Token bitsTok = advance();
        if (bitsTok.kind() != Token.Kind.NUMBER || !allDigits(bitsTok.text())) {
            throw error(bitsTok, "expected a bit size (1, 8, 16, 32 or 64) after " + start.text() + ", found " + bitsTok.describe());
        }
        int bits = bitsTok.text().length() > 2 ? 0 : Integer.parseInt(bitsTok.text());
        if (!Bits.isValidBitSize(bits)) throw error(bitsTok, "invalid bit size " + bitsTok.text() + " (expected 1, 8, 16, 32 or 64)");
        Token name = expect(Token.Kind.VALUE, "the defined value's name, such as %4");
        expect("=");
        Token bang = peek().is("!") ? advance() : null;
        Token opTok = expect(Token.Kind.IDENT, "an operation");
        Instr instr;
        switch (opTok.text()) {
            case "load_const" -> instr = loadConst(opTok, comps, bits);
            case "undef" -> instr = emit(new UndefInstr(fn, comps, bits));
            case "phi" -> instr = phi(comps, bits);
            default -> {
                Op op = Op.byName(opTok.text());
                if (op != null) {
                    instr = alu(opTok, op, comps, bits);
                } else {
                    Intrinsic in = Intrinsic.byName(opTok.text());
                    if (in == null) throw error(opTok, "unknown operation '" + opTok.text() + "'");
                    if (!in.hasDest()) throw error(opTok, in.spelling() + " does not define a value");
                    instr = intrinsic(opTok, in, comps, bits);
                }
            }
        }
        if (bang != null) {
            if (!(instr instanceof AluInstr alu)) throw error(bang, "only ALU instructions can be marked exact with '!'");
            alu.setExact(true);
        }
        instr.setLoc(loc(start));
        define(name, instr.def());
    }

    private void statement() {
        Token opTok = advance();
        Intrinsic in = Intrinsic.byName(opTok.text());
        if (in == null) {
            if (Op.byName(opTok.text()) != null || opTok.text().equals("load_const") || opTok.text().equals("phi")
                    || opTok.text().equals("undef")) {
                throw error(opTok, opTok.text() + " defines a value: write 'vecN BITS %name = " + opTok.text() + " …'");
            }
            throw error(opTok, "unknown operation '" + opTok.text() + "'");
        }
        if (in.hasDest()) {
            throw error(opTok, in.spelling() + " defines a value: write 'vecN BITS %name = " + in.spelling() + " …'");
        }
        Instr instr = intrinsic(opTok, in, 0, 0);
        instr.setLoc(loc(opTok));
    }

    private Instr loadConst(Token opTok, int comps, int bits) {
        expect("(");
        List<Long> vals = new ArrayList<>();
        do {
            vals.add(literalBits(advance(), bits));
        } while (accept(","));
        Token close = expect(")");
        if (vals.size() != comps) {
            throw error(close, "load_const has " + vals.size() + " value(s) for a " + comps + "-component result");
        }
        long[] arr = new long[vals.size()];
        for (int i = 0; i < arr.length; i++) arr[i] = vals.get(i);
        return emit(new LoadConstInstr(fn, bits, arr));
    }

    /** The bit pattern of a literal in a constant of {@code bits} bits. */
    private long literalBits(Token t, int bits) {
        String s = t.text();
        boolean word = t.kind() == Token.Kind.IDENT
                && (s.equals("true") || s.equals("false") || s.equals("inf") || s.equals("nan"));
        if (t.kind() != Token.Kind.NUMBER && !word) {
            throw error(t, "expected a constant (number, inf, nan, true or false), found " + t.describe());
        }
        try {
            return Literals.parse(s, bits, null);
        } catch (IllegalArgumentException e) {
            throw error(t, e.getMessage());
        }
    }

    private Instr phi(int comps, int bits) {
        PhiInstr phi = emit(new PhiInstr(fn, comps, bits));
        if (peek().kind() == Token.Kind.IDENT && peek(1).is(":")) {
            do {
                Token label = expect(Token.Kind.IDENT, "a predecessor block name");
                expect(":");
                Token v = expect(Token.Kind.VALUE, "a value");
                if (peek().is(".")) throw error(peek(), "phi sources take the whole value (no swizzle)");
                pendingPhis.add(new PendingPhi(phi, label, v));
                ref(v);
            } while (accept(","));
        }
        return phi;
    }

    private Instr alu(Token opTok, Op op, int comps, int bits) {
        List<Value> srcs = new ArrayList<>();
        List<byte[]> swz = new ArrayList<>();
        if (peek().kind() == Token.Kind.VALUE) {
            do {
                Token v = expect(Token.Kind.VALUE, "a source value such as %2");
                srcs.add(ref(v));
                if (accept(".")) {
                    Token s = expect(Token.Kind.IDENT, "a swizzle such as xyzw");
                    byte[] sw = Swizzle.parse(s.text());
                    if (sw == null) throw error(s, "'" + s.text() + "' is not a swizzle (use xyzw, or a–p beyond 4 components)");
                    swz.add(sw);
                } else {
                    swz.add(null);
                }
            } while (accept(","));
        }
        if (srcs.size() != op.numInputs()) {
            throw error(opTok, op.opName() + " takes " + op.numInputs() + " source(s), got " + srcs.size());
        }
        for (int i = 0; i < srcs.size(); i++) {
            int want = op.inputComponents(i, comps);
            if (swz.get(i) != null && swz.get(i).length != want) {
                throw error(opTok, "source " + (i + 1) + " of " + op.opName() + " reads " + want
                        + " component(s), but its swizzle has " + swz.get(i).length);
            }
        }
        return emit(new AluInstr(fn, op, comps, bits, srcs.toArray(new Value[0]), swz.toArray(new byte[0][])));
    }

    private Instr intrinsic(Token opTok, Intrinsic in, int comps, int bits) {
        Variable var = null;
        boolean first = true;
        if (in.varKind() != null) {
            Token s = expect(Token.Kind.SYMBOL, "the variable " + in.spelling() + " uses, such as @name");
            var = fn.local(s.text()) != null ? fn.local(s.text()) : shader.variable(s.text());
            if (var == null) throw error(s, "unknown variable @" + s.text());
            if (var.kind() != in.varKind()) {
                throw error(s, in.spelling() + " needs " + article(in.varKind().spelling()) + " variable, but @" + s.text()
                        + " is " + article(var.kind().spelling()));
            }
            first = false;
        }
        List<Value> srcs = new ArrayList<>();
        if (!first ? peek().is(",") : peek().kind() == Token.Kind.VALUE) {
            if (!first) advance();
            do {
                Token v = expect(Token.Kind.VALUE, "a source value such as %2");
                if (peek().is(".")) throw error(peek(), "intrinsic sources take the whole value; swizzle with a mov first");
                srcs.add(ref(v));
            } while (accept(","));
        }
        List<Intrinsic.Role> roles = in.roles(var);
        if (srcs.size() != roles.size()) {
            StringBuilder want = new StringBuilder();
            for (Intrinsic.Role r : roles) {
                if (want.length() > 0) want.append(", ");
                want.append(r.name().toLowerCase(Locale.ROOT).replace('_', ' '));
            }
            throw error(opTok, in.spelling() + (var != null ? " @" + var.name() : "") + " takes " + roles.size()
                    + " source(s)" + (roles.isEmpty() ? "" : " (" + want + ")") + ", got " + srcs.size());
        }
        return emit(new IntrinsicInstr(fn, in, var, comps, bits, srcs.toArray(new Value[0])));
    }

    /**
     * Appends in text order. Unlike the builder, the parser never moves an instruction before a
     * jump or after phis: what the text says is what the IR holds, and the validator judges it.
     */
    private <T extends Instr> T emit(T instr) {
        b.block().append(instr);
        return instr;
    }

    private static String article(String noun) {
        return ("aeiou".indexOf(noun.charAt(0)) >= 0 ? "an " : "a ") + noun;
    }
}
