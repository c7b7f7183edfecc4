package dev.lathe.ir.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RuleLiteralTest {
    @Test
    void booleansAreOneBitIntegersNotFloats() {
        // "true" and "false" contain an 'e', which once made them read as float spellings.
        assertFalse(RuleLiteral.isFloatSpelling("true"));
        assertFalse(RuleLiteral.isFloatSpelling("false"));
        assertTrue(RuleLiteral.of("true").fits(1, false));
        assertTrue(RuleLiteral.of("false").fits(1, false));
        assertEquals(1L, RuleLiteral.of("true").bits(1, false));
        assertEquals(0L, RuleLiteral.of("false").bits(1, false));
        assertFalse(RuleLiteral.of("true").fits(32, false));
        assertFalse(RuleLiteral.of("true").fits(32, true));
    }

    @Test
    void floatSpellings() {
        assertTrue(RuleLiteral.isFloatSpelling("1.0"));
        assertTrue(RuleLiteral.isFloatSpelling("-inf"));
        assertTrue(RuleLiteral.isFloatSpelling("nan"));
        assertTrue(RuleLiteral.isFloatSpelling("1e3"));
        assertFalse(RuleLiteral.isFloatSpelling("0x3f800000"));
        assertFalse(RuleLiteral.isFloatSpelling("-1"));
    }
}
