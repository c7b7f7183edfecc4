package dev.lathe.ir.text;

import dev.lathe.ir.AluFlag;
import dev.lathe.ir.AluFlags;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.BaseType;
import dev.lathe.ir.Block;
import dev.lathe.ir.FloatControls;
import dev.lathe.ir.Function;
import dev.lathe.ir.GeometryLayout;
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
import java.util.ArrayList;
import java.util.Arrays;
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
    /** The handle of the first token not consumed yet; the lexer reads at most two beyond it. */
    private int next;
    /**
     * No op or intrinsic takes more sources; more is an error found while the list is read, so
     * that the instruction's first token is still held when it is reported ({@link Lexer#RING}).
     */
    private static final int MAX_SOURCES = 64;
    /** Scratch for an instruction's sources, copied into the instruction. */
    private Value[] srcScratch = new Value[16];

    private byte[][] swzScratch = new byte[16][];
    private Shader shader;

    // per function
    private Function fn;
    private IrBuilder b;
    private ValueTable values;
    private Map<String, Value> placeholders;
    private Map<String, Token> firstUse;
    private Map<String, Block> labels;
    private List<PendingPhi> pendingPhis;
    private boolean blockStarted;

    private record PendingPhi(PhiInstr phi, Token label, Token value) {}

    private enum OpenKind {
        THEN,
        ELSE,
        LOOP
    }

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

    private int peek() {
        return peek(0);
    }

    private int peek(int k) {
        while (lexer.count() <= next + k) lexer.readToken();
        return next + k;
    }

    private int advance() {
        int t = peek();
        if (lexer.kind(t) != Token.Kind.EOF) next++;
        return t;
    }

    private Token.Kind kind(int t) {
        return lexer.kind(t);
    }

    private String text(int t) {
        return lexer.text(t);
    }

    private boolean is(int t, String punctOrWord) {
        return lexer.is(t, punctOrWord);
    }

    private String describe(int t) {
        return lexer.token(t).describe();
    }

    private int line(int t) {
        return lexer.line(t);
    }

    private int column(int t) {
        return lexer.column(t);
    }

    private boolean accept(String s) {
        if (is(peek(), s)) {
            advance();
            return true;
        }
        return false;
    }

    private int expect(String s) {
        int t = peek();
        if (!is(t, s)) throw error(t, "expected '" + s + "', found " + describe(t));
        return advance();
    }

    private int expect(Token.Kind kind, String what) {
        int t = peek();
        if (kind(t) != kind) throw error(t, "expected " + what + ", found " + describe(t));
        return advance();
    }

    private IrSyntaxException error(int t, String msg) {
        return error(lexer.token(t), msg);
    }

    private IrSyntaxException error(Token t, String msg) {
        return new IrSyntaxException(
                Diagnostic.error(file, t.line(), t.column(), msg, Diagnostic.lineOf(text, t.line())));
    }

    private SourceLoc loc(int t) {
        return new SourceLoc(file, line(t), column(t));
    }

    // ---- shader -------------------------------------------------------------------------------

    private Shader shader() {
        int kw = peek();
        if (!is(kw, "shader"))
            throw error(kw, "expected 'shader vertex|fragment|compute|geometry' at the start of the file");
        advance();
        int st = expect(Token.Kind.IDENT, "a stage (vertex, fragment, compute or geometry)");
        Stage stage = Stage.parse(text(st));
        if (stage == null)
            throw error(st, "unknown stage '" + text(st) + "' (expected vertex, fragment, compute or geometry)");
        shader = new Shader(stage);
        if (stage == Stage.GEOMETRY) geometryLayout(st);
        if (is(peek(), "workgroup_size")) {
            int w = advance();
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
        if (is(peek(), "float_controls")) {
            advance();
            expect("(");
            while (true) {
                int m = expect(Token.Kind.IDENT, "a float control (denorm_preserve32 …)");
                if (!FloatControls.isKnown(text(m)))
                    throw error(
                            m,
                            "unknown float control '" + text(m) + "' (expected a SPIR-V float-control"
                                    + " execution mode and width: denorm_preserve32, denorm_flush_to_zero16,"
                                    + " signed_zero_inf_nan_preserve64, rounding_mode_rte16, rounding_mode_rtz32 …)");
                shader.addFloatControl(text(m));
                if (is(peek(), ")")) break;
                expect(",");
            }
            expect(")");
        }
        while (true) {
            int t = peek();
            if (is(t, "input")
                    || is(t, "output")
                    || is(t, "uniform")
                    || is(t, "constant")
                    || is(t, "buffer")
                    || is(t, "texture")
                    || is(t, "shared")
                    || is(t, "image")) {
                declaration();
            } else {
                break;
            }
        }
        if (!is(peek(), "function")) {
            throw error(
                    peek(),
                    "expected a declaration (input, output, uniform, constant, buffer, texture, image, shared) or 'function', found "
                            + describe(peek()));
        }
        while (is(peek(), "function")) function();
        if (kind(peek()) != Token.Kind.EOF)
            throw error(peek(), "expected 'function' or end of file, found " + describe(peek()));
        boolean hasMain = false;
        for (Function f : shader.functions()) hasMain |= f.name().equals("main");
        if (!hasMain) throw error(peek(), "the shader has no function named main");
        return shader;
    }

    /** {@code input(P) output(Q, N) [invocations(K)]} after {@code shader geometry}. */
    private void geometryLayout(int st) {
        if (!is(peek(), "input")) throw error(peek(), "a geometry shader says input(PRIMITIVE) output(STRIP, N)");
        advance();
        expect("(");
        int in = expect(
                Token.Kind.IDENT,
                "an input primitive (points, lines, lines_adjacency, triangles, triangles_adjacency)");
        GeometryLayout.InputPrimitive input = GeometryLayout.InputPrimitive.parse(text(in));
        if (input == null)
            throw error(
                    in,
                    "unknown input primitive '" + text(in)
                            + "' (expected points, lines, lines_adjacency, triangles or triangles_adjacency)");
        expect(")");
        if (!is(peek(), "output")) throw error(peek(), "a geometry shader says output(STRIP, N) after its input");
        advance();
        expect("(");
        int out = expect(Token.Kind.IDENT, "an output primitive (points, line_strip, triangle_strip)");
        GeometryLayout.OutputPrimitive output = GeometryLayout.OutputPrimitive.parse(text(out));
        if (output == null)
            throw error(
                    out,
                    "unknown output primitive '" + text(out) + "' (expected points, line_strip or triangle_strip)");
        expect(",");
        int n = positiveInt(advance(), "vertex count");
        expect(")");
        int invocations = 1;
        if (is(peek(), "invocations")) {
            advance();
            expect("(");
            invocations = positiveInt(advance(), "invocation count");
            expect(")");
        }
        try {
            shader.setGeometry(new GeometryLayout(input, output, n, invocations));
        } catch (IllegalArgumentException e) {
            throw error(st, e.getMessage());
        }
    }

    private int positiveInt(int t, String what) {
        int v = nonNegativeInt(t, what);
        if (v == 0) throw error(t, what + " must be positive");
        return v;
    }

    private int nonNegativeInt(int t, String what) {
        if (kind(t) != Token.Kind.NUMBER || !text(t).chars().allMatch(Character::isDigit)) {
            throw error(t, "expected a non-negative integer for the " + what + ", found " + describe(t));
        }
        try {
            int v = Integer.parseInt(text(t));
            if (v > Variable.MAX_NUMBER) throw error(t, what + " " + v + " is too large");
            return v;
        } catch (NumberFormatException e) {
            throw error(t, what + " " + text(t) + " is too large");
        }
    }

    private VarType type() {
        int t = expect(Token.Kind.IDENT, "a type such as 'vec4 f32' or 'u32'");
        int comps = 1;
        int scalar = t;
        if (text(t).startsWith("vec")) {
            comps = vecCount(t);
            scalar = expect(Token.Kind.IDENT, "a scalar type such as f32, i32, u8 or b1");
        }
        VarType vt = VarType.parseScalar(text(scalar), comps);
        if (vt == null) {
            throw error(scalar, "unknown type '" + text(scalar) + "' (expected f16/f32/f64, i8–i64, u8–u64 or b1)");
        }
        return vt;
    }

    private static boolean allDigits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) return false;
        }
        return true;
    }

    private int vecCount(int t) {
        int c;
        try {
            c = Integer.parseInt(text(t), 3, text(t).length(), 10);
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw error(t, "expected vecN (N = 1, 2, 3, 4, 8 or 16), found " + describe(t));
        }
        if (!Value.isValidComponentCount(c)) throw error(t, "a vector has 1, 2, 3, 4, 8 or 16 components, not " + c);
        return c;
    }

    private int symbolName() {
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
        while (kind(peek()) == Token.Kind.IDENT
                && (allowedKeys.contains(text(peek())) || allowedFlags.contains(text(peek())))) {
            int k = advance();
            if (out.containsKey(text(k))) throw error(k, "'" + text(k) + "' is given twice");
            if (allowedFlags.contains(text(k))) {
                out.put(text(k), 1);
            } else {
                expect("=");
                out.put(text(k), nonNegativeInt(advance(), text(k)));
            }
        }
        int t = peek();
        if (kind(t) == Token.Kind.IDENT && is(peek(1), "=")) {
            throw error(t, "unknown attribute '" + text(t) + "' (expected " + String.join(", ", allowedKeys) + ")");
        }
        return out;
    }

    private void declaration() {
        int kw = advance();
        try {
            switch (text(kw)) {
                case "input" -> {
                    VarType t = type();
                    int name = symbolName();
                    // a geometry shader's inputs are per vertex: an array of the input primitive's vertices
                    int bracket = peek();
                    int len = arraySuffix();
                    String problem = GeometryLayout.inputProblem(shader.geometry(), text(name), len);
                    // outside geometry the bracket is what is wrong; in geometry the input's length
                    if (problem != null) throw error(shader.geometry() == null ? bracket : name, problem);
                    Map<String, Integer> a = attributes(List.of("location"), List.of("flat"));
                    int loc = a.getOrDefault("location", nextLocation(Variable.Kind.INPUT));
                    add(name, Variable.input(text(name), t, loc, a.containsKey("flat"), len));
                }
                case "output" -> {
                    VarType t = type();
                    int name = symbolName();
                    Map<String, Integer> a = attributes(List.of("location"), List.of());
                    int loc = a.getOrDefault("location", nextLocation(Variable.Kind.OUTPUT));
                    add(name, Variable.output(text(name), t, loc));
                }
                case "uniform" -> {
                    VarType t = type();
                    int name = symbolName();
                    int len = arraySuffix();
                    Map<String, Integer> a = attributes(List.of("location"), List.of());
                    int loc = a.getOrDefault("location", shader.nextUniformLocation());
                    add(name, Variable.uniform(text(name), t, len, loc));
                }
                case "constant" -> {
                    VarType t = type();
                    int name = symbolName();
                    int len = arraySuffix();
                    expect("=");
                    add(name, Variable.constant(text(name), t, len, literals(t.bitSize())));
                }
                case "buffer" -> {
                    VarType t = type();
                    int name = symbolName();
                    Map<String, Integer> a = attributes(List.of("binding"), List.of());
                    int bind = a.getOrDefault("binding", nextBinding(Variable.Kind.BUFFER));
                    add(name, Variable.buffer(text(name), t, bind));
                }
                case "shared" -> {
                    if (shader.stage() != Stage.COMPUTE)
                        throw error(kw, "shared variables exist only in compute shaders");
                    VarType t = type();
                    int name = symbolName();
                    int len = arraySuffix();
                    attributes(List.of(), List.of());
                    add(name, Variable.shared(text(name), t, len));
                }
                case "image" -> {
                    int dimTok = expect(Token.Kind.IDENT, "an image dimension (1d, 2d or 3d)");
                    TextureDim dim = TextureDim.parse(text(dimTok));
                    if (dim == null || !dim.forImages())
                        throw error(dimTok, "unknown image dimension '" + text(dimTok) + "' (expected 1d, 2d or 3d)");
                    VarType t = type();
                    if (t.components() != 1 || t.bitSize() != 32 || t.base() == BaseType.BOOL) {
                        throw error(dimTok, "an image's texel type is f32, i32 or u32 (texels are 4 components)");
                    }
                    int name = symbolName();
                    List<String> formats = new ArrayList<>();
                    for (ImageFormat f : ImageFormat.values()) formats.add(f.spelling());
                    int fmtTok = peek();
                    Map<String, Integer> a = attributes(List.of("binding"), formats);
                    ImageFormat format = ImageFormat.full(t.base());
                    for (String k : a.keySet()) if (!k.equals("binding")) format = ImageFormat.byName(k);
                    if (a.size() > (a.containsKey("binding") ? 2 : 1)) throw error(fmtTok, "an image has one format");
                    if (format.base() != t.base()) {
                        throw error(
                                name,
                                "format " + format.spelling() + " holds "
                                        + format.base().name().toLowerCase(Locale.ROOT) + " texels, not "
                                        + t.scalarName());
                    }
                    int bind = a.getOrDefault("binding", nextBinding(Variable.Kind.IMAGE));
                    add(name, Variable.image(text(name), dim, format, bind));
                }
                default -> { // texture
                    int dimTok = expect(Token.Kind.IDENT, "a texture dimension (1d, 2d, 3d, cube, 1darray or 2darray)");
                    TextureDim dim = TextureDim.parse(text(dimTok));
                    if (dim == null)
                        throw error(
                                dimTok,
                                "unknown texture dimension '" + text(dimTok)
                                        + "' (expected 1d, 2d, 3d, cube, 1darray or 2darray)");
                    VarType t = type();
                    if (t.components() != 1 || t.bitSize() != 32 || t.base() == BaseType.BOOL) {
                        throw error(dimTok, "a texture's texel type is f32, i32 or u32 (texels are 4 components)");
                    }
                    int name = symbolName();
                    int len = arraySuffix();
                    Map<String, Integer> a = attributes(List.of("binding"), List.of("unorm"));
                    boolean unorm = a.containsKey("unorm");
                    if (unorm && t.base() != BaseType.FLOAT) throw error(name, "only f32 textures can be unorm");
                    int bind = a.getOrDefault("binding", nextBinding(Variable.Kind.TEXTURE));
                    add(name, Variable.texture(text(name), dim, t.base(), bind, unorm, len));
                }
            }
        } catch (IllegalArgumentException e) {
            throw error(kw, e.getMessage());
        }
    }

    private void add(int name, Variable v) {
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
        int name = expect(Token.Kind.IDENT, "a function name");
        for (Function f : shader.functions()) {
            if (f.name().equals(text(name))) throw error(name, "function " + text(name) + " is already defined");
        }
        fn = shader.addFunction(text(name));
        b = new IrBuilder(fn);
        values = new ValueTable(text);
        placeholders = new HashMap<>();
        firstUse = new HashMap<>();
        labels = new HashMap<>();
        pendingPhis = new ArrayList<>();
        blockStarted = false;
        expect("{");
        while (is(peek(), "local")) local();
        body();
        finishFunction();
    }

    private void local() {
        advance();
        VarType t = type();
        int name = symbolName();
        int len = arraySuffix();
        if (shader.variable(text(name)) != null || fn.local(text(name)) != null) {
            throw error(name, "@" + text(name) + " is already declared");
        }
        fn.addLocal(Variable.local(text(name), t, len));
    }

    private void body() {
        List<Open> open = new ArrayList<>();
        while (true) {
            int t = peek();
            if (kind(t) == Token.Kind.EOF) throw error(t, "unexpected end of file: missing '}'");
            if (is(t, "}")) {
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
            } else if (is(t, "block")) {
                label();
            } else if (is(t, "if")) {
                advance();
                int c = expect(Token.Kind.VALUE, "a condition value such as %3");
                if (is(peek(), "."))
                    throw error(peek(), "an if condition takes a whole 1-component value (no swizzle)");
                Value cond = ref(c);
                expect("{");
                IfNode in = fn.insertIf(b.block(), null, cond);
                in.setLoc(loc(t));
                b.atEnd(in.thenList().lastBlock());
                open.add(new Open(OpenKind.THEN, in, null));
                blockStarted = false;
            } else if (is(t, "loop")) {
                advance();
                expect("{");
                LoopNode loop = fn.insertLoop(b.block(), null);
                loop.setLoc(loc(t));
                b.atEnd(loop.body().lastBlock());
                open.add(new Open(OpenKind.LOOP, null, loop));
                blockStarted = false;
            } else if (is(t, "break") || is(t, "continue") || is(t, "return")) {
                advance();
                JumpInstr j = new JumpInstr(JumpInstr.Kind.valueOf(text(t).toUpperCase(Locale.ROOT)));
                j.setLoc(loc(t));
                b.block().append(j);
                blockStarted = true;
            } else if (kind(t) == Token.Kind.IDENT && text(t).startsWith("vec")) {
                definition();
                blockStarted = true;
            } else if (kind(t) == Token.Kind.IDENT) {
                statement();
                blockStarted = true;
            } else {
                throw error(t, "expected an instruction, 'block', 'if', 'loop' or '}', found " + describe(t));
            }
        }
    }

    private void label() {
        int kw = advance();
        int name = expect(Token.Kind.IDENT, "a block name such as b3");
        expect(":");
        if (blockStarted) {
            throw error(
                    kw,
                    "block " + text(name) + " would start inside another block: a new block begins only "
                            + "after '{', '}' or at the start of a function");
        }
        if (labels.containsKey(text(name))) throw error(name, "block " + text(name) + " is already defined");
        labels.put(text(name), b.block());
        b.block().setLabel(text(name));
        blockStarted = true;
    }

    private void finishFunction() {
        for (PendingPhi pp : pendingPhis) {
            Block pred = blockByName(pp.label().text());
            if (pred == null)
                throw error(pp.label(), "unknown block " + pp.label().text());
            Value v = values.get(pp.value().text());
            if (v == null)
                throw error(pp.value(), "undefined value %" + pp.value().text());
            if (pp.phi().srcFor(pred) != null) {
                throw error(
                        pp.label(),
                        "the phi already has a source for block " + pp.label().text());
            }
            pp.phi().addSrc(pred, v);
        }
        if (!placeholders.isEmpty()) {
            Token worst = null;
            for (String name : placeholders.keySet()) {
                Token t = firstUse.get(name);
                if (worst == null
                        || t.line() < worst.line()
                        || (t.line() == worst.line() && t.column() < worst.column())) {
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
        if (name.length() > 1
                && name.charAt(0) == 'b'
                && name.substring(1).chars().allMatch(Character::isDigit)
                && name.length() < 10) {
            int idx = Integer.parseInt(name.substring(1));
            List<Block> blocks = fn.blocks();
            if (idx < blocks.size()) return blocks.get(idx);
        }
        return null;
    }

    // ---- values -------------------------------------------------------------------------------

    private Value ref(int t) {
        Value v = values.get(lexer.start(t), lexer.end(t));
        if (v != null) return v;
        String name = text(t);
        Value ph = placeholders.get(name);
        if (ph == null) {
            // A stand-in until the definition is read; it is never inserted in a block.
            ph = new UndefInstr(fn, 16, 64).def();
            placeholders.put(name, ph);
            firstUse.put(name, lexer.token(t));
        }
        return ph;
    }

    /** Names {@code v} by {@code text[start, end)}, a name the caller checked is new. */
    private void define(int start, int end, Value v) {
        values.add(start, end, v);
        if (!placeholders.isEmpty()) {
            Value ph = placeholders.remove(text.substring(start, end));
            if (ph != null) ph.replaceAllUsesWith(v);
        }
    }

    // ---- instructions -------------------------------------------------------------------------

    private void definition() {
        int start = advance();
        int comps = vecCount(start);
        int bitsTok = advance();
        if (kind(bitsTok) != Token.Kind.NUMBER || !allDigits(text(bitsTok))) {
            throw error(
                    bitsTok,
                    "expected a bit size (1, 8, 16, 32 or 64) after " + text(start) + ", found " + describe(bitsTok));
        }
        int bits = text(bitsTok).length() > 2 ? 0 : Integer.parseInt(text(bitsTok));
        if (!Bits.isValidBitSize(bits))
            throw error(bitsTok, "invalid bit size " + text(bitsTok) + " (expected 1, 8, 16, 32 or 64)");
        SourceLoc loc = loc(start);
        int name = expect(Token.Kind.VALUE, "the defined value's name, such as %4");
        int nameStart = lexer.start(name), nameEnd = lexer.end(name);
        // Checked here, while the name's token is held (a phi's sources may be many).
        if (values.get(nameStart, nameEnd) != null) throw error(name, "value %" + text(name) + " is defined twice");
        expect("=");
        Token bang = is(peek(), "!") ? lexer.token(advance()) : null;
        int opTok = expect(Token.Kind.IDENT, "an operation");
        int flagsTok = is(peek(), "[") ? peek() : -1;
        AluFlags flags = flagsTok >= 0 ? flags() : AluFlags.NONE;
        Instr instr;
        switch (text(opTok)) {
            case "load_const" -> instr = loadConst(opTok, comps, bits);
            case "undef" -> instr = emit(new UndefInstr(fn, comps, bits));
            case "phi" -> instr = phi(comps, bits);
            default -> {
                Op op = Op.byName(text(opTok));
                if (op != null) {
                    instr = alu(opTok, op, comps, bits);
                } else {
                    Intrinsic in = Intrinsic.byName(text(opTok));
                    if (in == null) throw error(opTok, "unknown operation '" + text(opTok) + "'");
                    if (!in.hasDest()) throw error(opTok, in.spelling() + " does not define a value");
                    instr = intrinsic(opTok, in, comps, bits);
                }
            }
        }
        if (bang != null) {
            if (!(instr instanceof AluInstr alu))
                throw error(bang, "only ALU instructions can be marked exact with '!'");
            alu.setExact(true);
        }
        if (flagsTok >= 0) {
            if (!(instr instanceof AluInstr alu))
                throw error(flagsTok, "only ALU instructions carry flags such as [nsz]");
            AluFlag bad = flags.firstNotApplicableTo(alu.op());
            if (bad != null)
                throw error(
                        flagsTok,
                        bad.spelling() + " applies to " + bad.whereItApplies() + ", not to "
                                + alu.op().opName());
            if (alu.isExact() && flags.has(AluFlag.REASSOC))
                throw error(flagsTok, "an exact ('!') instruction cannot carry reassoc");
            alu.setFlags(flags);
        }
        instr.setLoc(loc);
        define(nameStart, nameEnd, instr.def());
    }

    private void statement() {
        int opTok = advance();
        Intrinsic in = Intrinsic.byName(text(opTok));
        if (in == null) {
            if (Op.byName(text(opTok)) != null
                    || text(opTok).equals("load_const")
                    || text(opTok).equals("phi")
                    || text(opTok).equals("undef")) {
                throw error(opTok, text(opTok) + " defines a value: write 'vecN BITS %name = " + text(opTok) + " …'");
            }
            throw error(opTok, "unknown operation '" + text(opTok) + "'");
        }
        if (in.hasDest()) {
            throw error(opTok, in.spelling() + " defines a value: write 'vecN BITS %name = " + in.spelling() + " …'");
        }
        SourceLoc loc = loc(opTok);
        intrinsic(opTok, in, 0, 0).setLoc(loc);
    }

    private Instr loadConst(int opTok, int comps, int bits) {
        long[] vals = literals(bits);
        if (vals.length != comps) {
            throw error(
                    next - 1 /* its ')' */,
                    "load_const has " + vals.length + " value(s) for a " + comps + "-component result");
        }
        return emit(new LoadConstInstr(fn, bits, vals));
    }

    /** {@code (c, c, …)}: constants of {@code bits} bits, as load_const and constant data write them. */
    private long[] literals(int bits) {
        expect("(");
        long[] vals = new long[4];
        int n = 0;
        do {
            long v = literalBits(advance(), bits);
            if (n == vals.length) vals = Arrays.copyOf(vals, 2 * n);
            vals[n++] = v;
        } while (accept(","));
        expect(")"); // the token before next, where a message about the count points
        return Arrays.copyOf(vals, n);
    }

    /** The bit pattern of a literal in a constant of {@code bits} bits. */
    private long literalBits(int t, int bits) {
        String s = text(t);
        boolean word = kind(t) == Token.Kind.IDENT
                && (s.equals("true") || s.equals("false") || s.equals("inf") || s.equals("nan"));
        if (kind(t) != Token.Kind.NUMBER && !word) {
            throw error(t, "expected a constant (number, inf, nan, true or false), found " + describe(t));
        }
        try {
            return Literals.parse(s, bits, null);
        } catch (IllegalArgumentException e) {
            throw error(t, e.getMessage());
        }
    }

    private Instr phi(int comps, int bits) {
        PhiInstr phi = emit(new PhiInstr(fn, comps, bits));
        if (kind(peek()) == Token.Kind.IDENT && is(peek(1), ":")) {
            do {
                int label = expect(Token.Kind.IDENT, "a predecessor block name");
                expect(":");
                int v = expect(Token.Kind.VALUE, "a value");
                if (is(peek(), ".")) throw error(peek(), "phi sources take the whole value (no swizzle)");
                pendingPhis.add(new PendingPhi(phi, lexer.token(label), lexer.token(v)));
                ref(v);
            } while (accept(","));
        }
        return phi;
    }

    /** {@code [nsz, nnan]} after an op's name; the opening bracket is next. */
    private AluFlags flags() {
        expect("[");
        AluFlags flags = AluFlags.NONE;
        do {
            int t = expect(Token.Kind.IDENT, "a flag (nsz, nnan, ninf, reassoc, nsw, nuw)");
            AluFlag f = AluFlag.byName(text(t));
            if (f == null) throw error(t, "unknown flag '" + text(t) + "' (flags: nsz, nnan, ninf, reassoc, nsw, nuw)");
            if (flags.has(f)) throw error(t, "flag " + f.spelling() + " is written twice");
            flags = flags.with(f);
        } while (accept(","));
        expect("]");
        return flags;
    }

    private Instr alu(int opTok, Op op, int comps, int bits) {
        int n = 0;
        if (kind(peek()) == Token.Kind.VALUE) {
            do {
                int v = expect(Token.Kind.VALUE, "a source value such as %2");
                if (n == MAX_SOURCES) throw error(v, "too many sources: " + op.opName() + " takes " + op.numInputs());
                if (n == srcScratch.length) growScratch();
                srcScratch[n] = ref(v);
                if (accept(".")) {
                    int s = expect(Token.Kind.IDENT, "a swizzle such as xyzw");
                    byte[] sw = Swizzle.parse(text(s));
                    if (sw == null)
                        throw error(s, "'" + text(s) + "' is not a swizzle (use xyzw, or a–p beyond 4 components)");
                    swzScratch[n] = sw;
                } else {
                    swzScratch[n] = null;
                }
                n++;
            } while (accept(","));
        }
        if (n != op.numInputs()) {
            throw error(opTok, op.opName() + " takes " + op.numInputs() + " source(s), got " + n);
        }
        for (int i = 0; i < n; i++) {
            int want = op.inputComponents(i, comps);
            if (swzScratch[i] != null && swzScratch[i].length != want) {
                throw error(
                        opTok,
                        "source " + (i + 1) + " of " + op.opName() + " reads " + want
                                + " component(s), but its swizzle has " + swzScratch[i].length);
            }
        }
        // The instruction copies what it keeps of both arrays; only the values' count must be exact.
        return emit(new AluInstr(fn, op, comps, bits, Arrays.copyOf(srcScratch, n), swzScratch));
    }

    private void growScratch() {
        srcScratch = Arrays.copyOf(srcScratch, srcScratch.length * 2);
        swzScratch = Arrays.copyOf(swzScratch, swzScratch.length * 2);
    }

    private Instr intrinsic(int opTok, Intrinsic in, int comps, int bits) {
        Variable var = null;
        boolean first = true;
        if (in.varKind() != null) {
            int s = expect(Token.Kind.SYMBOL, "the variable " + in.spelling() + " uses, such as @name");
            var = fn.local(text(s)) != null ? fn.local(text(s)) : shader.variable(text(s));
            if (var == null) throw error(s, "unknown variable @" + text(s));
            if (var.kind() != in.varKind()) {
                throw error(
                        s,
                        in.spelling() + " needs " + article(in.varKind().spelling()) + " variable, but @" + text(s)
                                + " is " + article(var.kind().spelling()));
            }
            first = false;
        }
        int n = 0;
        if (!first ? is(peek(), ",") : kind(peek()) == Token.Kind.VALUE) {
            if (!first) advance();
            do {
                int v = expect(Token.Kind.VALUE, "a source value such as %2");
                if (is(peek(), "."))
                    throw error(peek(), "intrinsic sources take the whole value; swizzle with a mov first");
                if (n == MAX_SOURCES) throw error(v, "too many sources for " + in.spelling());
                if (n == srcScratch.length) growScratch();
                srcScratch[n++] = ref(v);
            } while (accept(","));
        }
        List<Intrinsic.Role> roles = in.roles(var);
        if (n != roles.size()) {
            StringBuilder want = new StringBuilder();
            for (Intrinsic.Role r : roles) {
                if (want.length() > 0) want.append(", ");
                want.append(r.name().toLowerCase(Locale.ROOT).replace('_', ' '));
            }
            throw error(
                    opTok,
                    in.spelling() + (var != null ? " @" + var.name() : "") + " takes " + roles.size() + " source(s)"
                            + (roles.isEmpty() ? "" : " (" + want + ")") + ", got " + n);
        }
        return emit(new IntrinsicInstr(fn, in, var, comps, bits, Arrays.copyOf(srcScratch, n)));
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
