package dev.lathe.rules;

import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.rules.ast.Ast;
import java.util.List;
import java.util.stream.Collectors;

/** How the rule checker's messages spell types, sizes and places, and how it reads a size annotation. */
final class CheckText {
    private CheckText() {}

    static final String NEGATED_HEX =
            "hex literals are raw bits and cannot be negated; write the bits of the negative value";

    static boolean isFloat(TypeClass t) {
        return t == TypeClass.FLOAT;
    }

    /** "an int", "a float". */
    static String article(TypeClass t) {
        return t == TypeClass.INT ? "an int" : "a " + t.spelling();
    }

    /** "1 bit", "32 bits". */
    static String bits(int n) {
        return n == 1 ? "1 bit" : n + " bits";
    }

    /** "16, 32 or 64 bits". */
    static String sizesText(int mask) {
        List<Integer> sizes = Bits.sizesIn(mask);
        if (sizes.size() == 1) return bits(sizes.get(0));
        return sizes.subList(0, sizes.size() - 1).stream().map(String::valueOf).collect(Collectors.joining(", "))
                + " or " + sizes.get(sizes.size() - 1) + " bits";
    }

    /** "3:14". */
    static String at(Ast.Pos pos) {
        return pos.line() + ":" + pos.column();
    }

    /** The size an annotation's text gives ({@code @32}): 0 when it is not a number, -1 for an invalid size. */
    static int sizeOf(String t) {
        if (!t.chars().allMatch(Character::isDigit)) return 0;
        int n = t.length() > 3 ? -1 : Integer.parseInt(t);
        return Bits.isValidBitSize(n) ? n : -1;
    }
}
