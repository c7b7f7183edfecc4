package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The golden tests are only as good as their checker. */
class FileCheckTest {
    private static final String OUT = """
            vec1 32 %3 = fadd %1, %2
            vec1 32 %4 = fmul %3, %3
            store_output @o, %4
            """;

    private static String verify(String checks) {
        return FileCheck.verify(FileCheck.parse(checks), OUT);
    }

    @Test
    void orderedChecksAndVariables() {
        assertNull(
                verify(
                        "// CHECK: [[A:%[0-9]+]] = fadd\n// CHECK-NEXT: [[B:%[0-9]+]] = fmul [[A]], [[A]]\n// CHECK: @o, [[B]]"));
        assertTrue(verify("// CHECK: fmul\n// CHECK: fadd").contains("no line matches"));
        assertTrue(verify("// CHECK: fadd\n// CHECK-NEXT: store_output").contains("the next line is"));
    }

    @Test
    void captureReusedInTheSamePattern() {
        assertNull(verify("// CHECK: fmul [[X:%[0-9]+]], [[X]]"));
        assertTrue(verify("// CHECK: fadd [[X:%[0-9]+]], [[X]]").contains("no line matches"));
    }

    @Test
    void checkNotBetweenMatches() {
        assertNull(verify("// CHECK: fadd\n// CHECK-NOT: fdiv\n// CHECK: store_output"));
        String bad = verify("// CHECK: fadd\n// CHECK-NOT: fmul\n// CHECK: store_output");
        assertTrue(bad.startsWith("line 2: CHECK-NOT: fmul"), bad);
        assertEquals(
                "line 1: CHECK-NOT uses [[Y]] before any CHECK captured it",
                verify("// CHECK-NOT: [[Y]]\n// CHECK: fadd"));
    }

    @Test
    void regexPieces() {
        assertNull(verify("// CHECK: vec1 {{16|32}} %{{[0-9]+}} = fadd"));
        assertEquals(List.of(), FileCheck.parse("no checks here"));
    }
}
