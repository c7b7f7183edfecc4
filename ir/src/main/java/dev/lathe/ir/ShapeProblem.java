package dev.lathe.ir;

/**
 * Something wrong with one instruction's own shape — an operand of the wrong size, a variable of
 * the wrong kind — that the op table or the intrinsic table makes plain without looking at the
 * rest of the function. The validator reports these under {@code check}; {@link IrBuilder}
 * refuses to insert an instruction that has one, so a frontend's mistake is caught where it is
 * made.
 */
public record ShapeProblem(String check, String message) {}
