package dev.lathe.rules.model;

/**
 * A set of nodes that must share one bit size, after union-find over the rule: operands
 * unified by op signatures, occurrences of a variable, the pattern and replacement roots.
 *
 * @param id          the class number
 * @param fixed       the size when the rule fixes it ({@code a@32}, a sized op operand), else 0
 * @param legal       the sizes every op on the class allows ({@code Bits.sizeFlag} set)
 * @param patternLegal the sizes the pattern alone allows; when wider than {@code legal}, the
 *                    matcher checks the size at run time before building the replacement
 */
public record SizeClass(int id, int fixed, int legal, int patternLegal) {
    public boolean isFixed() {
        return fixed != 0;
    }
}
