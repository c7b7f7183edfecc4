package dev.lathe.rules.soundness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.model.CheckedFile;
import dev.lathe.rules.model.CheckedRule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The prover on the fixtures: every exact rule of {@code unsound.rules} refuted with a
 * counterexample the op table confirms, every exact rule of {@code sound.rules} proved, and the
 * rules of {@code rare.rules}, wrong on one or a few values of 2^32 or 2^64 that the sampling
 * checker calls sound, all refuted.
 */
class RuleProverTest {
    private static final RuleProver.Settings SETTINGS = new RuleProver.Settings(20_000, 31);

    private static Proof prove(CheckedRule rule) {
        return new RuleProver(SETTINGS).prove(rule);
    }

    @TestFactory
    Stream<DynamicTest> unsoundFixturesAreRefuted() throws IOException {
        return each("unsound.rules", (rule, proof) -> {
            if (!rule.exact()) {
                assertEquals(Proof.Kind.TESTED, proof.kind(), proof.message());
                return;
            }
            assertEquals(Proof.Kind.REFUTED, proof.kind(), proof.message());
            assertNotNull(proof.counterexample());
            assertEquals(Verdict.Kind.UNSOUND, proof.counterexample().kind());
            assertTrue(
                    proof.message()
                            .startsWith(
                                    rule.file() + ":" + rule.line() + ":1: rule " + rule.name() + " is unsound at "),
                    proof.message());
        });
    }

    @TestFactory
    Stream<DynamicTest> soundFixturesAreProved() throws IOException {
        return each("sound.rules", (rule, proof) -> {
            if (rule.reassociating()) {
                // proved over the reals, or tested where an op has no real encoding (fexp2)
                assertTrue(
                        proof.kind() == Proof.Kind.PROVED
                                || proof.kind() == Proof.Kind.TESTED
                                        && proof.message().contains("has no encoding"),
                        proof.message());
            } else if (!rule.exact() || RuleProver.unencodedOp(rule) != null) {
                assertEquals(Proof.Kind.TESTED, proof.kind(), proof.message());
            } else {
                assertEquals(Proof.Kind.PROVED, proof.kind(), proof.message());
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> rareFaultsAreRefutedThoughSamplingMissesThem() throws IOException {
        SoundnessChecker sampling = new SoundnessChecker(SoundnessChecker.Settings.defaults());
        return each("rare.rules", (rule, proof) -> {
            assertEquals(
                    Verdict.Kind.SOUND,
                    sampling.check(rule).kind(),
                    "the fixture is meant to be out of the sampling checker's reach");
            assertEquals(Proof.Kind.REFUTED, proof.kind(), proof.message());
        });
    }

    @Test
    void theCounterexampleIsTheOneValue() throws IOException {
        CheckedRule rule = rule("rare.rules", "xor_eq_hidden");
        Proof p = prove(rule);
        assertEquals(Proof.Kind.REFUTED, p.kind(), p.message());
        assertEquals(0x1d3bbadcL, p.counterexample().counterexample().inputs().get("a"), p.message());
    }

    @Test
    void inexactRulesAndOpsWithoutEncodingAreTestedOnly() {
        CheckedFile f = compile("pass t;\nr1: fadd(a, 0.0) ~=> a;\nr2: fpow(a, 1.0) => a;\n");
        Proof inexact = prove(f.rules().get(0)), noEncoding = prove(f.rules().get(1));
        assertEquals(Proof.Kind.TESTED, inexact.kind());
        assertTrue(inexact.message().contains("inexact"), inexact.message());
        assertEquals(Proof.Kind.TESTED, noEncoding.kind());
        assertTrue(noEncoding.message().contains("fpow has no SMT encoding"), noEncoding.message());
    }

    @Test
    void aTimeOutIsUnknownNotProved() {
        // The fused multiply-add at 64 bits is far beyond a millisecond.
        CheckedFile f = compile("pass t;\nr: ffma(a, 1.0, b) => fadd(a, b);\n");
        Proof proof = new RuleProver(new RuleProver.Settings(1, 1 << 4))
                .prove(f.rules().get(0));
        assertEquals(Proof.Kind.UNKNOWN, proof.kind(), proof.message());
        assertEquals(List.of(64), proof.unknown());
    }

    private interface Check {
        void run(CheckedRule rule, Proof proof);
    }

    private static Stream<DynamicTest> each(String file, Check check) throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (CheckedRule rule : SoundnessFixturesTest.load(file).rules()) {
            tests.add(DynamicTest.dynamicTest(rule.name(), () -> check.run(rule, prove(rule))));
        }
        return tests.stream();
    }

    private static CheckedRule rule(String file, String name) throws IOException {
        for (CheckedRule r : SoundnessFixturesTest.load(file).rules())
            if (r.name().equals(name)) return r;
        throw new IllegalArgumentException(name);
    }

    private static CheckedFile compile(String text) {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", text);
        assertTrue(r.ok(), r.render());
        return r.file();
    }
}
