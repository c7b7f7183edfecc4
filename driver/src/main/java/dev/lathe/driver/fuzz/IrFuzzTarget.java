package dev.lathe.driver.fuzz;

import dev.lathe.backend.compile.CompileException;
import dev.lathe.driver.Compiler;
import dev.lathe.driver.shaderdb.DifferentialCheck;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.Shader;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.text.IrSyntaxException;
import dev.lathe.ir.text.Utf8Text;
import dev.lathe.ir.validate.ValidationError;
import dev.lathe.ir.validate.Validator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * IR text. Seeds: random programs of the generator and the given {@code .ir} files. The oracle:
 * text that does not parse gets one located diagnostic ({@code fuzz.ir:LINE:COL:}); IR that does
 * not validate gets its errors; valid IR prints and parses back to the same text, compiles (or is
 * refused by the target with a message), and the binary agrees with the interpreter under the
 * NaN contract on two input sets.
 */
public final class IrFuzzTarget extends SeededTarget {
    static final String FILE = "fuzz.ir";

    public IrFuzzTarget(List<byte[]> files) {
        super("ir", ".ir", seeds(files), words());
    }

    private static List<byte[]> seeds(List<byte[]> files) {
        List<byte[]> seeds = new ArrayList<>();
        for (long k = 0; k < 40; k++) {
            seeds.add(IrPrinter.print(RandomProgramGenerator.generate(k, RandomProgramGenerator.Options.mixed(k)))
                    .getBytes(StandardCharsets.UTF_8));
        }
        seeds.addAll(files);
        return seeds;
    }

    private static List<String> words() {
        List<String> w = new ArrayList<>(List.of(
                "shader",
                "function",
                "main",
                "block",
                "if",
                "else",
                "loop",
                "break",
                "continue",
                "return",
                "phi",
                "load_const",
                "undef",
                "local",
                "input",
                "output",
                "uniform",
                "buffer",
                "texture",
                "image",
                "shared",
                "vec1",
                "vec4",
                "vec16",
                "f32",
                "u64",
                "b1",
                "location",
                "binding",
                "workgroup_size",
                "compute",
                "fragment",
                "vertex"));
        for (Op op : Op.values()) w.add(op.opName());
        for (Intrinsic in : Intrinsic.values()) w.add(in.spelling());
        return w;
    }

    @Override
    public String run(byte[] input) throws FuzzFailure {
        String text;
        try {
            text = Utf8Text.decode(input, FILE);
        } catch (Utf8Text.Malformed e) {
            Located.require(e.getMessage(), FILE, "malformed UTF-8");
            return "rejected: malformed UTF-8";
        }
        Shader s;
        try {
            s = IrParser.parse(FILE, text);
        } catch (IrSyntaxException e) {
            Located.require(e.diagnostic().render(), FILE, "a syntax error");
            return "rejected: syntax";
        }
        List<ValidationError> errors = Validator.validate(s);
        if (!errors.isEmpty()) {
            for (ValidationError e : errors) {
                if (e.format().isBlank())
                    throw new FuzzFailure(
                            "an empty validation message",
                            "a validation error of check " + e.check() + " says nothing");
            }
            return "rejected: invalid IR";
        }
        String printed = IrPrinter.print(s);
        String again;
        try {
            again = IrPrinter.print(IrParser.parse(FILE, printed));
        } catch (IrSyntaxException e) {
            throw new FuzzFailure(
                    "printed IR does not parse",
                    "the printed IR does not parse: " + e.diagnostic().render());
        }
        if (!again.equals(printed))
            throw new FuzzFailure("print/parse round trip", "printing, parsing and printing again changes the text");
        DifferentialCheck.Outcome o;
        try {
            o = DifferentialCheck.run(IrParser.parse(FILE, printed), Compiler.Options.defaults(), 2, 20_000);
        } catch (CompileException e) {
            if (e.getMessage() == null || e.getMessage().isBlank())
                throw new FuzzFailure("an empty compile error", "the target refuses it without a word");
            return "refused by the target";
        }
        if (o.difference() != null) {
            if (o.compared() == 0 && o.difference().startsWith("no input set was compared"))
                return "compiled; the reference fails on its inputs";
            throw new FuzzFailure("miscompile", "miscompile: " + o.difference());
        }
        return o.compared() == 0 ? "compiled; nothing decided" : "compiled and checked";
    }
}
