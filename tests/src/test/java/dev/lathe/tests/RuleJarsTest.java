package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.backend.sim.Simulator;
import dev.lathe.cli.Main;
import dev.lathe.driver.Compiler;
import dev.lathe.driver.Passes;
import dev.lathe.driver.RuleJars;
import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.pass.Pass;
import dev.lathe.ir.rewrite.RuleSet;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.rules.RuleCompilerMain;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own rules in Lathe's pass registry: a rule file compiled as {@code lathe-maven-plugin}
 * compiles it, packed into a jar, loaded by {@link RuleJars} and run by name through the driver
 * and through {@code lathe opt/compile --rules-jar}.
 */
class RuleJarsTest {
    static final String PROGRAM = """
            shader fragment

            uniform u32 @x location=0
            output u32 @o location=0

            function main {
                vec1 32 %x = load_uniform @x
                vec1 32 %n = inot %x
                vec1 32 %nn = inot %n
                vec1 32 %m = ixor %nn, %nn
                vec1 32 %r = iadd %m, %x
                store_output @o, %r
            }
            """;

    @TempDir
    Path dir;

    /** Compiles {@code rules} (one file) in package {@code pkg} and jars the classes. */
    private Path ruleJar(String fileName, String rules, String pkg) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src/" + pkg));
        Files.writeString(Files.createDirectories(dir.resolve("rules-" + pkg)).resolve(fileName), rules);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int code = RuleCompilerMain.run(
                new String[] {
                    "--rules",
                    dir.resolve("rules-" + pkg).toString(),
                    "--out",
                    src.toString(),
                    "--package",
                    pkg,
                    "--cite-from",
                    dir.toString()
                },
                new PrintStream(log, true, StandardCharsets.UTF_8));
        assertEquals(0, code, log.toString(StandardCharsets.UTF_8));
        Path classes = Files.createDirectories(dir.resolve("classes/" + pkg));
        List<String> args = new java.util.ArrayList<>(
                List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path")));
        try (Stream<Path> files = Files.walk(src)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        assertEquals(
                0,
                ToolProvider.getSystemJavaCompiler().run(null, log, log, args.toArray(String[]::new)),
                log.toString(StandardCharsets.UTF_8));
        Path jar = dir.resolve(pkg + ".jar");
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream j = new JarOutputStream(out);
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                j.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                j.write(Files.readAllBytes(f));
                j.closeEntry();
            }
        }
        return jar;
    }

    private Path mineJar() throws IOException {
        return ruleJar("my.rules", """
                pass mine;
                not_not: inot(inot(a)) => a;
                xor_self: ixor(a, a) => 0;
                """, "com.example.rules");
    }

    @Test
    void aJarsRuleSetsBecomePassesOfTheRegistry() throws IOException {
        List<RuleSet> sets = RuleJars.load(mineJar());
        assertEquals(1, sets.size());
        assertEquals("mine", sets.get(0).passName());
        Passes passes = new Passes(sets);
        assertTrue(passes.registry().names().contains("mine"));
        assertTrue(passes.registry().names().contains("algebraic"), "Lathe's own rule passes stay");
        Shader s = IrParser.parse("p.ir", PROGRAM);
        Pass mine = passes.registry().create("mine");
        assertTrue(mine.run(s.entryPoint()));
        String text = IrPrinter.print(s);
        assertFalse(text.contains("ixor"), text);
        assertTrue(text.contains("iadd %2, %0"), text); // not_not: the iadd reads x itself
        passes.checkRuleNames(java.util.Set.of("not_not")); // its rules can be disabled by name
        assertEquals(
                2,
                passes.ruleStats()
                        .get(passes.ruleStats().size() - 1)
                        .ruleSet()
                        .rules()
                        .size());
    }

    @Test
    void theCompilerRunsAJarsPassNamedInItsPipeline() throws IOException {
        List<RuleSet> sets = RuleJars.load(mineJar());
        Shader s = IrParser.parse("p.ir", PROGRAM);
        Shader reference = IrParser.parse("p.ir", PROGRAM);
        Compiler.Options options = Compiler.Options.verifying().withRules(sets).withPipeline("mine, copy_prop, dce");
        Compiler.Result r = Compiler.compile(s, options);
        for (long x : new long[] {0, 5, 0xffffffffL}) {
            ShaderInputs in = new ShaderInputs().set("x", x);
            assertEquals(
                    new Interpreter(reference).run(in).output("o")[0],
                    new Simulator(r.machine().program()).run(in).outputs().output("o")[0]);
        }
        // without the jar the pipeline names an unknown pass
        assertThrows(
                IllegalArgumentException.class,
                () -> Compiler.compile(
                        IrParser.parse("p.ir", PROGRAM),
                        Compiler.Options.verifying().withPipeline("mine")));
    }

    private record Cli(int code, String out, String err) {}

    private static Cli lathe(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Cli(code, out.toString(), err.toString());
    }

    @Test
    void latheOptAndCompileTakeRulesJar() throws IOException {
        Path jar = mineJar();
        Path program = Files.writeString(dir.resolve("p.ir"), PROGRAM);
        Cli opt =
                lathe("opt", "--rules-jar", jar.toString(), "--passes", "mine,dce", "--rule-stats", program.toString());
        assertEquals(0, opt.code(), opt.err());
        assertFalse(opt.out().contains("inot"), opt.out());
        assertTrue(opt.err().contains("rules of pass mine: 2 rewrites"), opt.err());
        Cli compile = lathe(
                "compile", "--rules-jar", jar.toString(), "--passes", "mine", "--emit", "stats", program.toString());
        assertEquals(0, compile.code(), compile.err());
        Cli without = lathe("opt", "--passes", "mine", program.toString());
        assertTrue(without.code() != 0);
        assertTrue(without.err().contains("unknown pass 'mine'"), without.err());
    }

    @Test
    void badJarsAreClearErrors() throws IOException {
        Path program = Files.writeString(dir.resolve("p.ir"), PROGRAM);
        Cli missing = lathe("opt", "--rules-jar", dir.resolve("none.jar").toString(), program.toString());
        assertTrue(missing.code() != 0);
        assertTrue(missing.err().contains("--rules-jar " + dir.resolve("none.jar") + ": no such file"), missing.err());

        Path empty = dir.resolve("empty.jar");
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(empty))) {
            j.putNextEntry(new JarEntry("README"));
            j.closeEntry();
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RuleJars.load(empty));
        assertTrue(e.getMessage().contains("has no GeneratedRules class"), e.getMessage());

        Path notAJar = Files.writeString(dir.resolve("text.jar"), "not a zip");
        e = assertThrows(IllegalArgumentException.class, () -> RuleJars.load(notAJar));
        assertTrue(e.getMessage().startsWith(notAJar + ": cannot read it"), e.getMessage());

        // a rule file whose pass has the name of one of Lathe's passes
        Path clash = ruleJar("algebraic.rules", "pass algebraic;\nr: inot(inot(a)) => a;\n", "com.example.clash");
        List<RuleSet> sets = RuleJars.load(clash);
        e = assertThrows(IllegalArgumentException.class, () -> new Passes(sets));
        assertEquals("pass algebraic is already registered", e.getMessage());
        Cli cli = lathe("opt", "--rules-jar", clash.toString(), program.toString());
        assertTrue(cli.err().contains("lathe opt: --rules-jar: pass algebraic is already registered"), cli.err());
    }
}
