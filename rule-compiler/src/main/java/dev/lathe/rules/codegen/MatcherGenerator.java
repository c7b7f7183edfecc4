package dev.lathe.rules.codegen;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.Match;
import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.ir.rewrite.Rewriter;
import dev.lathe.ir.rewrite.RuleInfo;
import dev.lathe.ir.rewrite.RuleLiteral;
import dev.lathe.ir.rewrite.RuleSet;
import dev.lathe.rules.model.CheckedFile;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.model.Condition;
import dev.lathe.rules.model.Node;
import dev.lathe.rules.model.ReplacementShape;
import dev.lathe.rules.model.SizeClass;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.lang.model.element.Modifier;

/**
 * Generates the matcher class of a rule file: a {@code switch} on the root op, one method per
 * root op trying its rules in file order, and one method per rule made of straight-line checks
 * with early exits, with the rule's {@code file:line} and text above it.
 *
 * <p>A commutative op in a pattern becomes a loop over its two operand orders (written order
 * first), so a failed check {@code continue}s with the next order; rules without commutative
 * ops exit with {@code return false}. This is the interpreter's depth-first search unrolled, so
 * both find the same first match. No tables are interpreted at run time: literals are constants
 * precomputed per bit size, and every check is a direct call.
 */
public final class MatcherGenerator {
    private static final ClassName ALU = ClassName.get(AluInstr.class);
    private static final ClassName SRC = ClassName.get(Src.class);
    private static final ClassName VALUE = ClassName.get(Value.class);
    private static final ClassName OP = ClassName.get(Op.class);
    private static final ClassName MATCH = ClassName.get(Match.class);
    private static final ClassName REWRITER = ClassName.get(Rewriter.class);
    private static final ClassName ALU_FLAG = ClassName.get("dev.lathe.ir", "AluFlag");
    private static final ClassName RULE_INFO = ClassName.get(RuleInfo.class);
    private static final int INFOS_PER_METHOD = 256;
    private static final ClassName LITERAL = ClassName.get(RuleLiteral.class);
    private static final ClassName PREDICATE = ClassName.get(Predicate.class);
    private static final ClassName TYPE_CLASS = ClassName.get(TypeClass.class);

    private final CheckedFile file;
    private final Function<CheckedRule, String> proof;
    private final String packageName;
    private final String className;
    private final Map<String, String> literalFields = new LinkedHashMap<>();
    private final Set<String> readings = new TreeSet<>();

    private MatcherGenerator(CheckedFile file, String packageName, Function<CheckedRule, String> proof) {
        this.file = file;
        this.proof = proof;
        this.packageName = packageName;
        this.className = classNameFor(file.passName());
    }

    /**
     * Text (a rule as written, comments and all; a file path) made safe inside a Javadoc
     * comment: a {@code *}{@code /} would end the comment, and javac reads a backslash-u
     * sequence as a character before it sees any comment, so backslashes are doubled.
     */
    public static String javadocText(String text) {
        return text.replace("\\", "\\\\").replace("*/", "*&#47;");
    }

    /** {@code algebraic} → {@code AlgebraicRules}. */
    public static String classNameFor(String passName) {
        StringBuilder sb = new StringBuilder();
        for (String part : passName.split("_")) {
            if (part.isEmpty()) continue;
            sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return sb + "Rules";
    }

    /** The Java source of the matcher class for {@code file}, its rules not proved. */
    public static JavaFile generate(CheckedFile file, String packageName) {
        return generate(file, packageName, r -> RuleInfo.NOT_PROVED);
    }

    /**
     * The Java source of the matcher class for {@code file}; {@code proof} gives each rule's
     * {@link RuleInfo#proof} word.
     */
    public static JavaFile generate(CheckedFile file, String packageName, Function<CheckedRule, String> proof) {
        return new MatcherGenerator(file, packageName, proof).build();
    }

    private JavaFile build() {
        TypeSpec.Builder type = TypeSpec.classBuilder(className)
                .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
                .addSuperinterface(RuleSet.class)
                .addJavadoc(
                        "The rules of {@code $L} (pass {@code $L}): generated by the Lathe rule compiler.\n"
                                + "Do not edit: change the rule file and rebuild.\n"
                                + "\n<p>{@link #rewrite} switches on the root's op; each {@code root_OP} method tries the rules\n"
                                + "rooted at that op in file order, after a cheap test of what defines the root's operands\n"
                                + "({@code oK}: the op defining operand K; {@code cK}: whether it is a constant). Each rule\n"
                                + "method matches its pattern top-down and returns false at the first check that fails.\n"
                                + "Names in a rule method are numbered by the pattern node they belong to:\n<ul>\n"
                                + "  <li>{@code n0}: the root instruction; {@code nK}: the instruction matched at node K;\n"
                                + "  <li>{@code eK}: the source leading to node K; {@code wK}: the components through which\n"
                                + "      node K's value is read (its view, after swizzles);\n"
                                + "  <li>{@code x_a}, {@code w_a}: the value and view bound to the rule variable {@code a};\n"
                                + "  <li>{@code sK}: the operand order tried at commutative node K (0 as written, 1 swapped);\n"
                                + "  <li>{@code sizeK}: the bit size of the rule's size class K;\n"
                                + "  <li>{@code tK}: the value built for replacement node K;\n"
                                + "  <li>{@code LIT_…}: a rule literal, with its bits at each size.\n</ul>\n",
                        javadocText(file.file()),
                        file.passName());
        type.addField(FieldSpec.builder(
                        ClassName.get(packageName, className),
                        "INSTANCE",
                        Modifier.PUBLIC,
                        Modifier.STATIC,
                        Modifier.FINAL)
                .initializer("new $L()", className)
                .build());

        List<MethodSpec> ruleMethods = new ArrayList<>();
        Map<Op, List<Integer>> byOp = new LinkedHashMap<>();
        for (int i = 0; i < file.rules().size(); i++) {
            CheckedRule r = file.rules().get(i);
            byOp.computeIfAbsent(r.pattern().op(), k -> new ArrayList<>()).add(i);
            ruleMethods.add(ruleMethod(i, r));
        }

        TypeName listOfInfo = ParameterizedTypeName.get(ClassName.get(List.class), RULE_INFO);
        type.addField(FieldSpec.builder(listOfInfo, "RULES", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                .initializer(ruleInfos(type, file, listOfInfo, proof))
                .build());
        for (String r : readings) {
            type.addField(FieldSpec.builder(boolean.class, r, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                    .addJavadoc(
                            r.equals("AS_FLOAT")
                                    ? "A literal read as a float (1.0), at the size it is used.\n"
                                    : "A literal read as an integer (1, 0xff, true), at the size it is used.\n")
                    .initializer("$L", r.equals("AS_FLOAT"))
                    .build());
        }
        for (Map.Entry<String, String> lit : literalFields.entrySet()) {
            type.addField(FieldSpec.builder(LITERAL, lit.getValue(), Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                    .initializer("$T.of($S)", LITERAL, lit.getKey())
                    .build());
        }

        type.addMethod(
                MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
        type.addMethod(MethodSpec.methodBuilder("passName")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .returns(String.class)
                .addStatement("return $S", file.passName())
                .build());
        type.addMethod(MethodSpec.methodBuilder("rules")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .returns(listOfInfo)
                .addStatement("return RULES")
                .build());
        type.addMethod(MethodSpec.methodBuilder("usesFacts")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .returns(boolean.class)
                .addStatement("return $L", file.usesFacts())
                .build());
        CodeBlock.Builder heights =
                CodeBlock.builder().add("return switch (op) {\n").indent();
        for (Map.Entry<Op, Integer> h : file.nodeHeights().entrySet())
            heights.add("case $L -> $L;\n", h.getKey().name(), h.getValue());
        heights.add("default -> 0;\n").unindent().add("};\n");
        type.addMethod(MethodSpec.methodBuilder("nodeHeight")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .addJavadoc("How deep below a pattern's root the op occurs at most (0: nowhere): how far up the driver"
                        + "\nre-offers the users of an instruction that a rewrite changed.\n")
                .returns(int.class)
                .addParameter(OP, "op")
                .addCode(heights.build())
                .build());

        CodeBlock.Builder dispatch =
                CodeBlock.builder().add("return switch (root.op()) {\n").indent();
        for (Op op : byOp.keySet()) dispatch.add("case $L -> $L(root, rw);\n", op.name(), opMethodName(op));
        dispatch.add("default -> -1;\n").unindent().add("};\n");
        type.addMethod(MethodSpec.methodBuilder("rewrite")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .addJavadoc(
                        "Tries the rules rooted at the instruction's op; the index of the rule that fired, or -1.\n")
                .returns(int.class)
                .addParameter(ALU, "root")
                .addParameter(REWRITER, "rw")
                .addCode(dispatch.build())
                .build());

        for (Map.Entry<Op, List<Integer>> e : byOp.entrySet()) {
            // A method holds at most ROOT_CHUNK rules (javac takes 64 KiB of code per method);
            // each part hands the root to the next when none of its rules fired.
            List<Integer> all = e.getValue();
            for (int from = 0, part = 1; from < all.size(); from += ROOT_CHUNK, part++) {
                List<Integer> chunk = all.subList(from, Math.min(all.size(), from + ROOT_CHUNK));
                MethodSpec.Builder m = MethodSpec.methodBuilder(
                                opMethodName(e.getKey()) + (part == 1 ? "" : "_" + part))
                        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
                        .returns(int.class)
                        .addParameter(ALU, "root")
                        .addParameter(REWRITER, "rw")
                        .addJavadoc(
                                part == 1
                                        ? "The rules rooted at {@code $L}, in file order.\n"
                                        : "The rules rooted at {@code $L}, in file order, part " + part + ".\n",
                                e.getKey().opName());
                Guards guards = new Guards(e.getKey());
                List<CodeBlock> tests = new ArrayList<>();
                for (int i : chunk) tests.add(guards.of(file.rules().get(i)));
                guards.declare(m);
                for (int k = 0; k < tests.size(); k++) {
                    int i = chunk.get(k);
                    CodeBlock call = CodeBlock.of(
                            "rw.enabled($L) && $L(root, rw)",
                            i,
                            ruleMethodName(i, file.rules().get(i)));
                    m.beginControlFlow(
                                    "if ($L)",
                                    tests.get(k) == null ? call : CodeBlock.of("$L && $L", tests.get(k), call))
                            .addStatement("return $L", i)
                            .endControlFlow();
                }
                if (from + ROOT_CHUNK < all.size())
                    m.addStatement("return $L_$L(root, rw)", opMethodName(e.getKey()), part + 1);
                else m.addStatement("return -1");
                type.addMethod(m.build());
            }
        }
        for (MethodSpec m : ruleMethods) type.addMethod(m);
        return JavaFile.builder(packageName, type.build())
                .addFileComment("Generated by the Lathe rule compiler from $L. Do not edit.", file.file())
                .skipJavaLangImports(true)
                .build();
    }

    /** Rules per root method: far above real rule sets (algebraic.rules has 40 on one op at most). */
    static final int ROOT_CHUNK = 500;

    private static String opMethodName(Op op) {
        return "root_" + op.opName();
    }

    private static String ruleMethodName(int index, CheckedRule r) {
        return "r" + index + "_" + r.name();
    }

    /** How a literal is read, by name rather than a bare boolean: {@code AS_FLOAT} or {@code AS_INT}. */
    private String reading(boolean asFloat) {
        String name = asFloat ? "AS_FLOAT" : "AS_INT";
        readings.add(name);
        return name;
    }

    /**
     * The constant holding a rule literal, named after it: {@code 1.0} is {@code LIT_1_0},
     * {@code -1} {@code LIT_NEG_1}, {@code 0xff} {@code LIT_0XFF}, {@code inf} {@code LIT_INF}.
     */
    private String literalField(String text) {
        return literalFields.computeIfAbsent(text, t -> {
            String name = "LIT_"
                    + t.toUpperCase(Locale.ROOT)
                            .replace("-", "NEG_")
                            .replace("+", "POS_")
                            .replace('.', '_')
                            .replaceAll("[^A-Z0-9_]", "_");
            String unique = name;
            for (int k = 2; literalFields.containsValue(unique); k++) unique = name + "_" + k;
            return unique;
        });
    }

    /**
     * Cheap necessary conditions tried before a rule's method is called: what defines each of
     * the root's operands (an op, or a constant for a literal or {@code #c}) and, for an inexact
     * rule, that the root is not marked exact. The operands' defining ops are read once per
     * root instruction, so a rule whose first level cannot match costs a comparison instead of a
     * call that walks the operands again (both operand orders for a commutative root).
     */
    private static final class Guards {
        private final Op root;
        private final boolean[] opUsed;
        private final boolean[] constUsed;

        Guards(Op root) {
            this.root = root;
            this.opUsed = new boolean[root.numInputs()];
            this.constUsed = new boolean[root.numInputs()];
        }

        /** The guard of one rule, or null when nothing cheap can rule it out. */
        CodeBlock of(CheckedRule r) {
            Node.OpNode p = r.pattern();
            List<CodeBlock> parts = new ArrayList<>();
            if (!r.exact()) parts.add(CodeBlock.of("!root.isExact()"));
            if (r.reassociating() && dev.lathe.ir.AluFlag.REASSOC.appliesTo(root))
                parts.add(CodeBlock.of("root.has($T.REASSOC)", ALU_FLAG));
            if (!p.flags().isEmpty()) {
                int want = p.flags().bits();
                parts.add(CodeBlock.of("(root.flags().bits() & $L) == $L /* $L */", want, want, p.flags()));
            }
            int first = 0;
            if (root.isCommutative()) {
                CodeBlock asWritten =
                        both(test(p.srcs().get(0), 0), test(p.srcs().get(1), 1));
                CodeBlock swapped = both(test(p.srcs().get(0), 1), test(p.srcs().get(1), 0));
                boolean symmetric =
                        Objects.equals(key(p.srcs().get(0)), key(p.srcs().get(1)));
                if (asWritten != null && symmetric) {
                    parts.add(asWritten);
                } else if (asWritten != null) {
                    // Operand 0's test first, whichever order the pattern wrote; each side bracketed.
                    String a = asWritten.toString(), b = swapped.toString();
                    CodeBlock lead = a.compareTo(b) <= 0 ? asWritten : swapped,
                            other = lead == asWritten ? swapped : asWritten;
                    parts.add(
                            a.contains("&&")
                                    ? CodeBlock.of("(($L) || ($L))", lead, other)
                                    : CodeBlock.of("($L || $L)", lead, other));
                }
                first = 2;
            }
            for (int j = first; j < p.srcs().size(); j++) {
                CodeBlock t = test(p.srcs().get(j), j);
                if (t != null) parts.add(t);
            }
            return parts.isEmpty() ? null : CodeBlock.join(parts, " && ");
        }

        /** What the guard asks of an operand: its defining op, "constant", or nothing (null). */
        private static String key(Node n) {
            if (n instanceof Node.OpNode op) return op.op().name();
            if (n instanceof Node.ConstNode || n instanceof Node.VarNode v && v.constOnly()) return "constant";
            return null;
        }

        private CodeBlock test(Node n, int src) {
            if (n instanceof Node.OpNode op) {
                opUsed[src] = true;
                return CodeBlock.of("o$L == $T.$L", src, OP, op.op().name());
            }
            if (n instanceof Node.ConstNode || n instanceof Node.VarNode v && v.constOnly()) {
                constUsed[src] = true;
                return CodeBlock.of("c$L", src);
            }
            return null;
        }

        private static CodeBlock both(CodeBlock a, CodeBlock b) {
            if (a == null) return b;
            if (b == null) return a;
            return CodeBlock.of("$L && $L", a, b);
        }

        /** Declares the operand facts the guards read, at the top of the root's method. */
        void declare(MethodSpec.Builder m) {
            for (int j = 0; j < opUsed.length; j++) {
                if (opUsed[j]) m.addStatement("$T o$L = $T.definingOp(root.src($L))", OP, j, MATCH, j);
                if (constUsed[j]) m.addStatement("boolean c$L = $T.isConstant(root.src($L).value())", j, MATCH, j);
            }
        }
    }

    /**
     * A local the rule code declares only where it is first needed: views (which swizzle
     * composition may allocate) and sizes are not computed for a rule that fails before using
     * them. The first use is always at the same or a deeper nesting than the point where the
     * local could first have been declared, so the declaration is in scope for every later use.
     */
    private static final class Lazy {
        final String name;
        final Supplier<CodeBlock> init;
        final TypeName type;
        boolean declared;

        Lazy(TypeName type, String name, Supplier<CodeBlock> init) {
            this.type = type;
            this.name = name;
            this.init = init;
        }

        /** The same local under another name. */
        Lazy named(String newName) {
            return new Lazy(type, newName, init);
        }

        CodeBlock ref(CodeBlock.Builder code) {
            if (!declared) {
                CodeBlock value = init.get(); // may declare what it depends on first
                code.addStatement("$T $L = $L", type, name, value);
                declared = true;
            }
            return CodeBlock.of("$L", name);
        }
    }

    // ---- one rule -----------------------------------------------------------------------------

    /**
     * Emits the code of one rule. Expressions are {@link CodeBlock}s so every type is imported;
     * {@code fail} is what a failed check does at the current depth.
     */
    private final class RuleCode {
        final CheckedRule rule;
        final CodeBlock.Builder code = CodeBlock.builder();
        final Map<Integer, Lazy> classSize = new HashMap<>();
        final Map<String, Binding> bound = new LinkedHashMap<>(); // in the pattern's order
        final Lazy rootView = new Lazy(TypeName.get(byte[].class), "w0", () -> CodeBlock.of("rw.rootView()"));
        String fail = "return false";
        int loops;

        /**
         * A pattern variable's first occurrence: its value and the components it reads, both
         * declared where first needed, so a variable that nothing reads again (the {@code a} of
         * {@code fmul(a, 0.0) ~=> 0.0}) declares no local.
         */
        record Binding(Lazy value, Lazy view) {}

        RuleCode(CheckedRule rule) {
            this.rule = rule;
            this.firsts = ReplacementShape.firsts(rule.replacement());
        }

        void check(CodeBlock failsWhen) {
            code.beginControlFlow("if ($L)", failsWhen).addStatement(fail).endControlFlow();
        }

        /**
         * A place where the size of class {@code cls} can be read. {@code implied} when valid IR
         * already guarantees it (an operand of an op matched with the class's size); otherwise
         * the size is checked against the fixed size or the size read earlier — the only new
         * size information comes from the root and from ops whose result is sized but whose
         * operands are not (u2u64(a): a's size is known only there).
         */
        void witness(int cls, Supplier<CodeBlock> sizeExpr, boolean implied) {
            SizeClass c = rule.sizeClass(cls);
            if (c.isFixed()) {
                if (!implied) check(CodeBlock.of("$L != $L", sizeExpr.get(), c.fixed()));
                return;
            }
            Lazy known = classSize.get(cls);
            if (known != null) {
                if (!implied) check(CodeBlock.of("$L != $L", sizeExpr.get(), known.ref(code)));
                return;
            }
            classSize.put(cls, new Lazy(TypeName.INT, "size" + cls, sizeExpr));
        }

        CodeBlock size(int cls) {
            SizeClass c = rule.sizeClass(cls);
            return c.isFixed()
                    ? CodeBlock.of("$L", c.fixed())
                    : classSize.get(cls).ref(code);
        }

        void opNode(Node.OpNode n, String instr, Lazy view) {
            if (n.once()) check(CodeBlock.of("!$T.hasOneUse($L.def())", MATCH, instr));
            if (!rule.exact() && !instr.equals("n0")) check(CodeBlock.of("$L.isExact()", instr));
            if (rule.reassociating() && dev.lathe.ir.AluFlag.REASSOC.appliesTo(n.op()) && !instr.equals("n0"))
                check(CodeBlock.of("!$L.has($T.REASSOC)", instr, ALU_FLAG));
            for (dev.lathe.ir.rewrite.UseCondition u :
                    n.uses().stream().sorted().toList())
                check(CodeBlock.of("!$T.$L.holds($L.def())", dev.lathe.ir.rewrite.UseCondition.class, u.name(), instr));
            if (!n.flags().isEmpty()) {
                int want = n.flags().bits();
                code.add("// $L must carry [$L]\n", n.op().opName(), n.flags());
                check(CodeBlock.of("($L.flags().bits() & $L) != $L", instr, want, want));
            }
            if (n.opClass() >= 0) {
                witness(
                        n.opClass(),
                        () -> CodeBlock.of("$L.unsizedBitSize()", instr),
                        !n.op().output().isSized());
            }
            String swap = null;
            if (n.op().isCommutative() && !orderIrrelevant(n)) {
                swap = "s" + n.id();
                code.add(
                        n.srcs().size() > 2
                                ? "// $L: the first two operands as written, then swapped\n"
                                : "// $L: operands as written, then swapped\n",
                        n.op().opName());
                code.beginControlFlow("for (int $L = 0; $L < 2; $L++)", swap, swap, swap);
                fail = "continue";
                loops++;
            }
            // Constant operands first: a cheap check that can fail is made before descending into
            // an operand's op (and its own operand-order loop). Pure checks, so the order in
            // which full matches are found does not change.
            List<Integer> order = new ArrayList<>();
            for (int j = 0; j < n.srcs().size(); j++) if (constantLeaf(n.srcs().get(j))) order.add(j);
            for (int j = 0; j < n.srcs().size(); j++) if (!constantLeaf(n.srcs().get(j))) order.add(j);
            for (int j : order) {
                String srcIndex = swap != null && j < 2 ? (j == 0 ? swap : "1 - " + swap) : Integer.toString(j);
                // Declared where first read: a variable nothing reads again needs no source.
                Lazy e = new Lazy(SRC, "e" + n.srcs().get(j).id(), () -> CodeBlock.of("$L.src($L)", instr, srcIndex));
                // a horizontal op reads a fixed count of each operand, whatever the root's view of it
                int k = n.op().isHorizontal() ? n.op().input(j).components() : 0;
                Lazy outer = k == 0
                        ? view
                        : new Lazy(
                                TypeName.get(byte[].class),
                                "i" + n.srcs().get(j).id(),
                                () -> CodeBlock.of("$T.identity($L)", MATCH, k));
                child(n.srcs().get(j), e, outer);
            }
        }

        /** A literal, or the first occurrence of a {@code #c} variable: checked without descending. */
        boolean constantLeaf(Node n) {
            return n instanceof Node.ConstNode
                    || n instanceof Node.VarNode v && v.constOnly() && !bound.containsKey(v.name());
        }

        /**
         * Whether trying a commutative node's operands the other way round could not change
         * whether the rule fires, so the written order alone is tried: the two operands are the
         * same tree ({@code iand(a, a)}), or two variables seen nowhere else in the pattern nor
         * in a condition (the {@code a} and {@code b} of {@code fmul(a, b)@once}), which match
         * whatever the order. The interpreter's search finds the written order first too.
         */
        boolean orderIrrelevant(Node.OpNode n) {
            Node x = n.srcs().get(0), y = n.srcs().get(1);
            if (sameTree(x, y)) return true;
            return x instanceof Node.VarNode a && y instanceof Node.VarNode b && freeVariable(a) && freeVariable(b);
        }

        private boolean freeVariable(Node.VarNode v) {
            if (v.constOnly() || bound.containsKey(v.name())) return false;
            for (Condition c : rule.conditions()) {
                if (c.var().name().equals(v.name())) return false;
            }
            int seen = 0;
            List<Node> work = new ArrayList<>(List.of(rule.pattern()));
            while (!work.isEmpty()) {
                Node m = work.remove(work.size() - 1);
                if (m instanceof Node.VarNode w && w.name().equals(v.name())) seen++;
                if (m instanceof Node.OpNode o) work.addAll(o.srcs());
            }
            return seen == 1;
        }

        private static boolean sameTree(Node x, Node y) {
            if (x instanceof Node.VarNode a)
                return y instanceof Node.VarNode b && a.name().equals(b.name()) && a.constOnly() == b.constOnly();
            if (x instanceof Node.ConstNode a) {
                return y instanceof Node.ConstNode b && a.text().equals(b.text()) && a.asFloat() == b.asFloat();
            }
            Node.OpNode a = (Node.OpNode) x;
            if (!(y instanceof Node.OpNode b)
                    || a.op() != b.op()
                    || !a.swizzle().equals(b.swizzle())
                    || a.once() != b.once()
                    || a.srcs().size() != b.srcs().size()) {
                return false;
            }
            for (int i = 0; i < a.srcs().size(); i++) {
                if (!sameTree(a.srcs().get(i), b.srcs().get(i))) return false;
            }
            return true;
        }

        /** The node reached through source {@code e} of a node seen through {@code outer}. */
        void child(Node n, Lazy e, Lazy outer) {
            Supplier<CodeBlock> value = () -> CodeBlock.of("$L.value()", e.ref(code));
            witness(n.sizeClass(), () -> CodeBlock.of("$L.bitSize()", value.get()), true);
            Lazy view = new Lazy(
                    TypeName.get(byte[].class),
                    null,
                    () -> CodeBlock.of("$T.view($L, $L)", MATCH, e.ref(code), outer.ref(code)));
            if (n instanceof Node.OpNode op) {
                String instr = "n" + op.id();
                code.addStatement(
                        "$T $L = $T.alu($L, $T.$L)",
                        ALU,
                        instr,
                        MATCH,
                        value.get(),
                        OP,
                        op.op().name());
                check(CodeBlock.of("$L == null", instr));
                Lazy opView = view.named("w" + op.id());
                if (op.op().isHorizontal()) {
                    // read in order (or at the swizzle's components), as NIR's matcher asks
                    check(
                            op.swizzle().isEmpty()
                                    ? CodeBlock.of("!$T.isIdentity($L)", MATCH, opView.ref(code))
                                    : CodeBlock.of(
                                            "!$T.viewIs($L, $L)",
                                            MATCH,
                                            opView.ref(code),
                                            componentList(op.swizzle())));
                }
                opNode(op, instr, opView);
            } else if (n instanceof Node.VarNode v) {
                Binding b = bound.get(v.name());
                if (b != null) {
                    check(CodeBlock.of(
                            "!$T.same($L, $L, $L, $L)",
                            MATCH,
                            b.value().ref(code),
                            b.view().ref(code),
                            e.ref(code),
                            outer.ref(code)));
                } else {
                    Binding first = new Binding(new Lazy(VALUE, "x_" + v.name(), value), view.named("w_" + v.name()));
                    if (v.constOnly())
                        check(CodeBlock.of(
                                "!$T.isConstant($L)", MATCH, first.value().ref(code)));
                    bound.put(v.name(), first);
                }
            } else {
                Node.ConstNode c = (Node.ConstNode) n;
                check(CodeBlock.of(
                        "!$T.isLiteral($L, $L, $L, $L)",
                        MATCH,
                        e.ref(code),
                        outer.ref(code),
                        literalField(c.text()),
                        reading(c.asFloat())));
            }
        }

        void finish() {
            for (SizeClass c : rule.classes()) {
                if (!c.isFixed() && c.legal() != c.patternLegal() && classSize.containsKey(c.id())) {
                    check(CodeBlock.of("!$T.sizeIn($L, $L)", MATCH, size(c.id()), c.legal()));
                }
            }
            for (Condition cond : rule.conditions()) {
                Binding b = bound.get(cond.var().name());
                CodeBlock args = CodeBlock.of(
                        "$T.$L, $L, $L, $T.$L",
                        PREDICATE,
                        cond.predicate().name(),
                        b.value().ref(code),
                        b.view().ref(code),
                        TYPE_CLASS,
                        cond.type().name());
                check(
                        cond.predicate().takesLiteral()
                                ? CodeBlock.of("!rw.test($L, $L)", args, boundLiteral(cond.bound()))
                                : CodeBlock.of("!rw.test($L)", args));
            }
            replacementLiteralChecks(rule.replacement());
            Node r = rule.replacement();
            readsBeforeBuilding(r);
            if (r instanceof Node.VarNode v) {
                Binding b = bound.get(v.name());
                if (v.swizzle().isEmpty())
                    code.addStatement(
                            "rw.replace($L, $L)", b.value().ref(code), b.view().ref(code));
                else
                    code.addStatement(
                            "rw.replace($L, $T.compose($L, $L))",
                            b.value().ref(code),
                            MATCH,
                            b.view().ref(code),
                            componentList(v.swizzle()));
            } else if (r instanceof Node.OpNode ro && !ro.swizzle().isEmpty()) {
                CodeBlock built = value(r);
                code.addStatement("rw.replace($L, new byte[] {$L})", built, componentList(ro.swizzle()));
            } else {
                CodeBlock built = value(r);
                code.addStatement("rw.replace($L, $L)", built, rootView.ref(code));
            }
            code.addStatement("return true");
            for (int i = 0; i < loops; i++) code.endControlFlow();
            if (loops > 0) code.addStatement("return false");
        }

        /**
         * Declares every variable, view and size the replacement reads before the first
         * instruction is built, so that a rule's code reads: match, check, then build.
         */
        void readsBeforeBuilding(Node r) {
            Set<String> read = new HashSet<>();
            List<Node> work = new ArrayList<>(List.of(r));
            while (!work.isEmpty()) {
                Node n = work.remove(work.size() - 1);
                if (n instanceof Node.VarNode v) {
                    read.add(v.name());
                } else if (n instanceof Node.ConstNode c) {
                    size(c.sizeClass());
                } else {
                    Node.OpNode op = (Node.OpNode) n;
                    size(op.sizeClass());
                    if (op.opClass() >= 0) size(op.opClass());
                    work.addAll(op.srcs());
                }
            }
            if (!(r instanceof Node.VarNode)) rootView.ref(code);
            for (Map.Entry<String, Binding> e : bound.entrySet()) {
                if (!read.contains(e.getKey())) continue;
                e.getValue().value().ref(code);
                e.getValue().view().ref(code);
            }
        }

        void replacementLiteralChecks(Node n) {
            if (n instanceof Node.ConstNode c && !fitsEverywhere(c)) {
                check(CodeBlock.of(
                        "!$L.fits($L, $L)", literalField(c.text()), size(c.sizeClass()), reading(c.asFloat())));
            } else if (n instanceof Node.OpNode op) {
                for (Node s : op.srcs()) replacementLiteralChecks(s);
            }
        }

        /** A condition's bound as Java: masks and powers of two above 255 in hex, as rules write them. */
        static String boundLiteral(long bound) {
            boolean bits = bound > 255 && ((bound & (bound - 1)) == 0 || (bound & (bound + 1)) == 0);
            return bits ? "0x" + Long.toHexString(bound) + "L" : bound + "L";
        }

        /** Whether the literal has a value at every size its class may take: no check needed. */
        boolean fitsEverywhere(Node.ConstNode c) {
            SizeClass cls = rule.sizeClass(c.sizeClass());
            RuleLiteral lit = RuleLiteral.of(c.text());
            int possible = cls.isFixed() ? Bits.sizeFlag(cls.fixed()) : cls.legal();
            return Bits.sizesIn(possible).stream().allMatch(bits -> lit.fits(bits, c.asFloat()));
        }

        /** The replacement's op nodes by the first node of their shape ({@link ReplacementShape#firsts}). */
        final Map<Integer, Integer> firsts;

        /** The locals already holding a subtree, by the first node of its shape. */
        final Set<Integer> built = new HashSet<>();

        /** A replacement node's value (instructions are built before the root). */
        CodeBlock value(Node n) {
            if (n instanceof Node.ConstNode c) {
                if (c.components() > 0)
                    return CodeBlock.of(
                            "rw.literal($L, $L, $L, $L)",
                            literalField(c.text()),
                            size(c.sizeClass()),
                            reading(c.asFloat()),
                            c.components());
                return CodeBlock.of(
                        "rw.literal($L, $L, $L)", literalField(c.text()), size(c.sizeClass()), reading(c.asFloat()));
            }
            Node.OpNode op = (Node.OpNode) n;
            if (op.constant()) return CodeBlock.of("rw.constant($L, $L)", size(op.sizeClass()), fold(op));
            List<CodeBlock> args = new ArrayList<>();
            for (Node s : op.srcs()) {
                if (s instanceof Node.VarNode v) {
                    args.add(varOperand(v));
                } else {
                    // a subtree of a shape built before is read again, not built twice
                    int first = firsts.get(s.id());
                    String t = "t" + first;
                    if (built.add(first)) code.addStatement("$T $L = $L", VALUE, t, value(s));
                    args.add(builtOperand(s, CodeBlock.of("$L", t)));
                }
            }
            int comps = op.op().isHorizontal() ? op.op().output().components() : op.components();
            CodeBlock built = comps == 0
                    ? CodeBlock.of(
                            "rw.op($T.$L, $L, $L)",
                            OP,
                            op.op().name(),
                            size(op.sizeClass()),
                            CodeBlock.join(args, ", "))
                    : CodeBlock.of(
                            "rw.op($T.$L, $L, $L, $L)",
                            OP,
                            op.op().name(),
                            size(op.sizeClass()),
                            comps,
                            CodeBlock.join(args, ", "));
            return op.builtExact() ? CodeBlock.of("rw.exact($L)", built) : built;
        }

        /** A bound variable as an operand: whole, or the components its swizzle names. */
        CodeBlock varOperand(Node.VarNode v) {
            Binding b = bound.get(v.name());
            if (v.swizzle().isEmpty())
                return CodeBlock.of(
                        "rw.operand($L, $L)", b.value().ref(code), b.view().ref(code));
            return CodeBlock.of(
                    "rw.operand($L, $T.compose($L, $L))",
                    b.value().ref(code),
                    MATCH,
                    b.view().ref(code),
                    componentList(v.swizzle()));
        }

        /**
         * A built subtree as an operand: a horizontal op's result read in order at the count the
         * operand is read at, or at its swizzle's components; anything else whole.
         */
        CodeBlock builtOperand(Node s, CodeBlock t) {
            if (!(s instanceof Node.OpNode so) || !so.op().isHorizontal()) return t;
            if (!so.swizzle().isEmpty()) return CodeBlock.of("rw.part($L, $L)", t, componentList(so.swizzle()));
            return CodeBlock.of("rw.prefix($L, $L)", t, so.components());
        }

        /** A swizzle's components as Java arguments ({@code 1, 0}). */
        static String componentList(String swizzle) {
            StringBuilder sb = new StringBuilder();
            for (byte c : Node.swizzleComponents(swizzle))
                sb.append(sb.length() == 0 ? "" : ", ").append(c);
            return sb.toString();
        }

        /** A constant expression's components, folded with the op table when the rule fires. */
        CodeBlock fold(Node n) {
            if (n instanceof Node.ConstNode c) {
                return CodeBlock.of(
                        "rw.literalComponents($L, $L, $L)",
                        literalField(c.text()),
                        size(c.sizeClass()),
                        reading(c.asFloat()));
            }
            if (n instanceof Node.VarNode v) {
                Binding b = bound.get(v.name());
                return CodeBlock.of(
                        "$T.constants($L, $L)",
                        MATCH,
                        b.value().ref(code),
                        b.view().ref(code));
            }
            Node.OpNode op = (Node.OpNode) n;
            List<CodeBlock> args = new ArrayList<>();
            for (Node s : op.srcs()) args.add(fold(s));
            return CodeBlock.of(
                    "rw.fold($T.$L, $L, $L)",
                    OP,
                    op.op().name(),
                    op.opClass() < 0 ? CodeBlock.of("0") : size(op.opClass()),
                    CodeBlock.join(args, ", "));
        }
    }

    /**
     * The rule table. A class initializer may hold at most 64 KiB of bytecode, which a few thousand
     * {@code new RuleInfo(...)} expressions exceed, so large files fill the table from helper
     * methods of {@value #INFOS_PER_METHOD} entries each.
     */
    private static CodeBlock ruleInfos(
            TypeSpec.Builder type, CheckedFile file, TypeName listOfInfo, Function<CheckedRule, String> proof) {
        List<CheckedRule> rules = file.rules();
        if (rules.size() <= INFOS_PER_METHOD) {
            CodeBlock.Builder infos =
                    CodeBlock.builder().add("$T.of(\n", List.class).indent();
            for (int i = 0; i < rules.size(); i++) {
                infos.add("$L$L\n", ruleInfo(rules.get(i), proof), i + 1 < rules.size() ? "," : "");
            }
            return infos.unindent().add(")").build();
        }
        MethodSpec.Builder all = MethodSpec.methodBuilder("allRules")
                .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
                .addJavadoc(
                        "The rule table, filled in parts of $L: a class initializer holds at most 64 KiB of bytecode.\n",
                        INFOS_PER_METHOD)
                .returns(listOfInfo)
                .addStatement("$T<$T> out = new $T<>($L)", List.class, RULE_INFO, ArrayList.class, rules.size());
        for (int start = 0, part = 0; start < rules.size(); start += INFOS_PER_METHOD, part++) {
            MethodSpec.Builder chunk = MethodSpec.methodBuilder("rules" + part)
                    .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
                    .addParameter(listOfInfo, "out");
            for (int i = start; i < Math.min(rules.size(), start + INFOS_PER_METHOD); i++) {
                chunk.addStatement("out.add($L)", ruleInfo(rules.get(i), proof));
            }
            type.addMethod(chunk.build());
            all.addStatement("rules$L(out)", part);
        }
        type.addMethod(all.addStatement("return $T.copyOf(out)", List.class).build());
        return CodeBlock.of("allRules()");
    }

    private static CodeBlock ruleInfo(CheckedRule r, Function<CheckedRule, String> proof) {
        if (r.gates().isEmpty())
            return CodeBlock.of(
                    "new $T($S, $S, $S, $L, $S)",
                    RULE_INFO,
                    r.name(),
                    r.location(),
                    r.text(),
                    r.exact(),
                    proof.apply(r));
        CodeBlock.Builder gates = CodeBlock.builder();
        for (int i = 0; i < r.gates().size(); i++)
            gates.add(i == 0 ? "$S" : ", $S", r.gates().get(i).key());
        return CodeBlock.of(
                "new $T($S, $S, $S, $L, $S, $T.of($L))",
                RULE_INFO,
                r.name(),
                r.location(),
                r.text(),
                r.exact(),
                proof.apply(r),
                List.class,
                gates.build());
    }

    private MethodSpec ruleMethod(int index, CheckedRule r) {
        RuleCode rc = ruleCode(r, false);
        // A rule that reads the root's view declares it first, as a person would, not inside a loop.
        if (rc.rootView.declared) rc = ruleCode(r, true);
        return MethodSpec.methodBuilder(ruleMethodName(index, r))
                .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
                .returns(boolean.class)
                .addParameter(ALU, "n0")
                .addParameter(REWRITER, "rw")
                .addJavadoc(
                        "$L\n<pre>{@code $L}</pre>\n$L",
                        r.location(),
                        javadocText(r.text()),
                        r.comment().isEmpty() ? "" : javadocText(r.comment()) + "\n")
                .addCode(rc.code.build())
                .build();
    }

    private RuleCode ruleCode(CheckedRule r, boolean rootViewFirst) {
        RuleCode rc = new RuleCode(r);
        // An op whose result has a fixed size (flt: 1 bit) needs no check of it.
        rc.witness(
                r.pattern().sizeClass(),
                () -> CodeBlock.of("n0.def().bitSize()"),
                r.pattern().op().output().isSized());
        if (!r.exact() && !r.reassociating()) rc.code.add("// ~=>: the caller offers no root marked exact\n");
        if (r.usedBits() != 0) {
            rc.code.add("// @low$L: only the low bits of the root are used\n", r.usedBits());
            rc.code.add("if (!$T.onlyLowBitsUsed(n0.def(), $L)) return false;\n", MATCH, r.usedBits());
        }
        if (r.reassociating()) {
            rc.code.add("// ~~>: every float instruction matched must allow reassociation\n");
            if (dev.lathe.ir.AluFlag.REASSOC.appliesTo(r.pattern().op()))
                rc.code.add("if (!n0.has($T.REASSOC)) return false;\n", ALU_FLAG);
        }
        int most = r.maxRootComponents();
        if (most > 0) {
            rc.code.add("// a horizontal op is read at the root's width: at most $L component(s)\n", most);
            rc.code.add("if (n0.def().numComponents() > $L) return false;\n", most);
        }
        if (rootViewFirst) rc.rootView.ref(rc.code);
        rc.opNode(r.pattern(), "n0", rc.rootView);
        rc.finish();
        return rc;
    }
}
