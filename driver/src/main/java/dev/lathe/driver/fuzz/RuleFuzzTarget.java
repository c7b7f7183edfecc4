package dev.lathe.driver.fuzz;

import dev.lathe.ir.op.Op;
import dev.lathe.ir.text.Diagnostic;
import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.codegen.MatcherGenerator;
import dev.lathe.rules.soundness.SoundnessChecker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Rule files. Seeds: a small built-in file and the given {@code .rules} files (the project's
 * rules), cut into pieces of 30 lines under their pass line. The oracle: the rule compiler never throws; every diagnostic names a line and column of
 * the file; a file it accepts generates its matcher class, and its first rule goes through the
 * soundness checker (a short run) without an exception.
 */
public final class RuleFuzzTarget extends SeededTarget {
    static final String FILE = "fuzz.rules";
    static final String BUILT_IN = """
            pass fuzz;
            mul_one:   fmul(a, 1.0) => a;
            add_zero:  iadd(a, 0) => a;
            neg_neg:   fneg(fneg(a)) => a;
            max_pos:   fmax(a, 0.0) => a  if is_not_negative(a);
            pow2_mul:  imul(a, #c) => ishl(a, find_lsb(c)) if is_power_of_two(c);
            narrow:    u2u32(u2u64(a@32)) => a;
            once:      fadd(fmul(a, b)@once, c) ~=> ffma(a, b, c);
            pack_hi:   pack_64_2x32_split(unpack_64_2x32_split_x(a), b) => pack_64_2x32_split_y(a, b);
            """;

    public RuleFuzzTarget(List<byte[]> files) {
        super("rules", ".rules", seeds(files), words());
    }

    private static List<byte[]> seeds(List<byte[]> files) {
        List<byte[]> seeds = new ArrayList<>();
        seeds.add(BUILT_IN.getBytes(StandardCharsets.UTF_8));
        // a large file is cut into its pass line and chunks of 30 lines: as varied, and fast to compile
        for (byte[] f : files) {
            List<String> all = List.of(new String(f, StandardCharsets.UTF_8).split("\n"));
            String pass = all.stream()
                    .filter(l -> l.trim().startsWith("pass "))
                    .findFirst()
                    .orElse("pass fuzz;");
            List<String> lines =
                    all.stream().filter(l -> !l.trim().startsWith("pass ")).toList();
            for (int at = 0; at < lines.size(); at += 30) {
                String chunk =
                        pass + "\n" + String.join("\n", lines.subList(at, Math.min(lines.size(), at + 30))) + "\n";
                seeds.add(chunk.getBytes(StandardCharsets.UTF_8));
            }
        }
        return seeds;
    }

    private static List<String> words() {
        List<String> w = new ArrayList<>(List.of(
                "pass",
                "if",
                "=>",
                "~=>",
                "@once",
                "@32",
                "@64",
                "@f32",
                "@u16",
                "#c",
                "is_power_of_two",
                "is_not_negative",
                "is_finite",
                "ult_const",
                "true",
                "false",
                "inf",
                "nan"));
        for (Op op : Op.values()) w.add(op.opName());
        return w;
    }

    private static final SoundnessChecker CHECKER = new SoundnessChecker(new SoundnessChecker.Settings(100, 1, 31));

    @Override
    public String run(byte[] input) throws FuzzFailure {
        String text = new String(input, StandardCharsets.UTF_8);
        RuleCompiler.Result r = RuleCompiler.compile(FILE, text);
        List<Diagnostic> all = new ArrayList<>(r.errors());
        all.addAll(r.warnings());
        for (Diagnostic d : all) Located.require(d.render(), FILE, "a diagnostic");
        if (!r.ok()) return "rejected with located diagnostics";
        MatcherGenerator.generate(r.file(), "dev.lathe.driver.fuzz.generated").toString();
        // the soundness checker on the first rule (a short run: the point is that it never throws)
        if (!r.file().rules().isEmpty()) CHECKER.check(r.file().rules().get(0));
        return r.warnings().isEmpty() ? "accepted" : "accepted with warnings";
    }
}
