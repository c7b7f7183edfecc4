package dev.lathe.ir.op;

import static dev.lathe.ir.op.OpFlag.ASSOCIATIVE;
import static dev.lathe.ir.op.OpFlag.COMMUTATIVE;
import static dev.lathe.ir.op.OpFlag.SIGN_BLIND;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The op table: every ALU opcode of the IR, with its operand types, algebraic properties, legal
 * bit sizes and evaluation function. This is the single source of truth for what an op means:
 * constant folding, the interpreter, the validator, the rule compiler and the soundness checker
 * all read it, and nothing else restates an op's semantics.
 *
 * <p>Names follow NIR. A signature such as {@code float(float,float)} lists the result type and
 * the source types; a type without a bit size is "unsized": all unsized operands of one
 * instruction share the instruction's bit size. {@code xN} marks a fixed component count; ops
 * without one work per component. The edge-case conventions (division by zero, shift counts,
 * float to int saturation, NaN and signed zero in fmin/fmax/fsat) are documented on the
 * evaluation functions and in {@code ir/README.md}.
 */
public enum Op {
    // ---- data movement ------------------------------------------------------------------------
    MOV("any(any)", 0, SizeSet.ALL, "copy (with a swizzle)"),
    VEC2("anyx2(anyx1,anyx1)", 0, SizeSet.ALL, "build a vec2 from scalars"),
    VEC3("anyx3(anyx1,anyx1,anyx1)", 0, SizeSet.ALL, "build a vec3 from scalars"),
    VEC4("anyx4(anyx1,anyx1,anyx1,anyx1)", 0, SizeSet.ALL, "build a vec4 from scalars"),
    VEC8("anyx8(anyx1,anyx1,anyx1,anyx1,anyx1,anyx1,anyx1,anyx1)", 0, SizeSet.ALL, "build a vec8 from scalars"),
    VEC16(
            "anyx16(anyx1,anyx1,anyx1,anyx1,anyx1,anyx1,anyx1,anyx1,anyx1,anyx1,anyx1,anyx1,anyx1,anyx1,anyx1,anyx1)",
            0,
            SizeSet.ALL,
            "build a vec16 from scalars"),
    BCSEL("any(bool1,any,any)", 0, SizeSet.ALL, "c ? a : b"),

    // ---- float arithmetic ---------------------------------------------------------------------
    FADD("float(float,float)", COMMUTATIVE, "a + b"),
    FSUB("float(float,float)", 0, "a - b"),
    FMUL("float(float,float)", COMMUTATIVE, "a * b"),
    FMULZ("float(float,float)", COMMUTATIVE, "a * b, but +0 when a or b is 0 (even times inf or NaN)"),
    FDIV("float(float,float)", 0, "a / b"),
    FFMA("float(float,float,float)", COMMUTATIVE, "a * b + c, fused (one rounding)"),
    FLRP("float(float,float,float)", 0, "a*(1-c) + b*c, each step rounded"),
    FNEG("float(float)", 0, "-a (flips the sign bit, NaN included)"),
    FABS("float(float)", 0, "|a| (clears the sign bit, NaN included)"),
    FSAT("float(float)", 0, "fmin(fmax(a, 0), 1): NaN -> +0, -0 -> +0"),
    FSAT_SIGNED("float(float)", 0, "fmin(fmax(a, -1), 1): NaN -> -1"),
    FCLAMP_POS("float(float)", 0, "fmax(a, 0): NaN -> +0"),
    FSIGN("float(float)", 0, "1.0, -1.0; zeros keep their sign; NaN -> NaN"),
    FMIN("float(float,float)", COMMUTATIVE | ASSOCIATIVE, "minNum: NaN operand loses, -0 < +0"),
    FMAX("float(float,float)", COMMUTATIVE | ASSOCIATIVE, "maxNum: NaN operand loses, -0 < +0"),
    FMIN3("float(float,float,float)", COMMUTATIVE, "fmin(fmin(a, b), c)"),
    FMAX3("float(float,float,float)", COMMUTATIVE, "fmax(fmax(a, b), c)"),
    FMED3("float(float,float,float)", COMMUTATIVE, "fmax(fmin(a, b), fmin(fmax(a, b), c))"),
    FFLOOR("float(float)", 0, "round toward -inf"),
    FCEIL("float(float)", 0, "round toward +inf"),
    FTRUNC("float(float)", 0, "round toward zero"),
    FROUND_EVEN("float(float)", 0, "round to nearest, ties to even"),
    FFRACT("float(float)", 0, "a - ffloor(a)"),
    FMOD("float(float,float)", 0, "a - b * floor(a / b), each step rounded (GLSL mod)"),
    FREM("float(float,float)", 0, "a - b * trunc(a / b), exact (C fmod)"),
    FRCP("float(float)", 0, "1 / a"),
    FRSQ("float(float)", 0, "1 / sqrt(a), in double, rounded once"),
    FSQRT("float(float)", 0, "sqrt(a); negative -> NaN"),
    FEXP2("float(float)", 0, "2^a (StrictMath.pow)"),
    FLOG2("float(float)", 0, "log2(a); 0 -> -inf, negative -> NaN"),
    FPOW("float(float,float)", 0, "a^b (StrictMath.pow)"),
    FSIN("float(float)", 0, "sin(a) (StrictMath)"),
    FCOS("float(float)", 0, "cos(a) (StrictMath)"),
    LDEXP("float(float,int32)", 0, "a * 2^b, one rounding"),
    FQUANTIZE2F16("float(float)", 0, SizeSet.ONLY32, "round to f16 (subnormals flushed to zero) and back"),
    FISNAN("bool1(float)", 0, "a is NaN"),
    FISFINITE("bool1(float)", 0, "a is neither infinite nor NaN"),
    FCSEL("float(float,float,float)", 0, "a != 0.0 ? b : c"),
    FDOT2("floatx1(floatx2,floatx2)", COMMUTATIVE, "a.x*b.x + a.y*b.y, left to right"),
    FDOT3("floatx1(floatx3,floatx3)", COMMUTATIVE, "3-component dot product, left to right"),
    FDOT4("floatx1(floatx4,floatx4)", COMMUTATIVE, "4-component dot product, left to right"),
    FDPH("floatx1(floatx3,floatx4)", 0, "dot(a, b.xyz) + b.w"),
    FDOT8("floatx1(floatx8,floatx8)", COMMUTATIVE, "8-component dot product, left to right (NIR's fdot8)"),
    FDOT16("floatx1(floatx16,floatx16)", COMMUTATIVE, "16-component dot product, left to right (NIR's fdot16)"),
    // NIR's replicated dot products give the dot product in every component (output_size 0);
    // here they have 4, the vec4 machines they exist for: a result read at fewer is read in order
    FDOT2_REPLICATED("floatx4(floatx2,floatx2)", COMMUTATIVE, "fdot2 in each of 4 components (NIR's fdot2_replicated)"),
    FDOT3_REPLICATED("floatx4(floatx3,floatx3)", COMMUTATIVE, "fdot3 in each of 4 components (NIR's fdot3_replicated)"),
    FDOT4_REPLICATED("floatx4(floatx4,floatx4)", COMMUTATIVE, "fdot4 in each of 4 components (NIR's fdot4_replicated)"),
    FDPH_REPLICATED("floatx4(floatx3,floatx4)", 0, "fdph in each of 4 components (NIR's fdph_replicated)"),
    FSUM2("floatx1(floatx2)", 0, "a.x + a.y (NIR's fsum2)"),
    FSUM3("floatx1(floatx3)", 0, "the sum of 3 components, left to right (NIR's fsum3)"),
    FSUM4("floatx1(floatx4)", 0, "the sum of 4 components, left to right (NIR's fsum4)"),

    // ---- float comparisons --------------------------------------------------------------------
    FLT("bool1(float,float)", 0, "a < b (ordered: false on NaN)"),
    FGE("bool1(float,float)", 0, "a >= b (ordered)"),
    FEQ("bool1(float,float)", COMMUTATIVE, "a == b (ordered)"),
    FNEU("bool1(float,float)", COMMUTATIVE, "a != b (unordered: true on NaN)"),
    FLTU("bool1(float,float)", 0, "a < b or unordered"),
    FGEU("bool1(float,float)", 0, "a >= b or unordered"),
    FEQU("bool1(float,float)", COMMUTATIVE, "a == b or unordered"),
    FNEO("bool1(float,float)", COMMUTATIVE, "a != b and ordered"),
    FUNORD("bool1(float,float)", COMMUTATIVE, "a or b is NaN"),
    FORD("bool1(float,float)", COMMUTATIVE, "neither a nor b is NaN"),
    BALL_FEQUAL2("bool1x1(floatx2,floatx2)", COMMUTATIVE, "all components feq"),
    BALL_FEQUAL3("bool1x1(floatx3,floatx3)", COMMUTATIVE, "all components feq"),
    BALL_FEQUAL4("bool1x1(floatx4,floatx4)", COMMUTATIVE, "all components feq"),
    BANY_FNEQUAL2("bool1x1(floatx2,floatx2)", COMMUTATIVE, "some component fneu"),
    BANY_FNEQUAL3("bool1x1(floatx3,floatx3)", COMMUTATIVE, "some component fneu"),
    BANY_FNEQUAL4("bool1x1(floatx4,floatx4)", COMMUTATIVE, "some component fneu"),
    BALL_FEQUAL8("bool1x1(floatx8,floatx8)", COMMUTATIVE, "all components feq"),
    BALL_FEQUAL16("bool1x1(floatx16,floatx16)", COMMUTATIVE, "all components feq"),
    BANY_FNEQUAL8("bool1x1(floatx8,floatx8)", COMMUTATIVE, "some component fneu"),
    BANY_FNEQUAL16("bool1x1(floatx16,floatx16)", COMMUTATIVE, "some component fneu"),
    // NIR's comparisons for hardware without integers: 1.0 or 0.0
    FALL_EQUAL2("float32x1(float32x2,float32x2)", COMMUTATIVE, "1.0 if all components feq, else 0.0"),
    FALL_EQUAL3("float32x1(float32x3,float32x3)", COMMUTATIVE, "1.0 if all components feq, else 0.0"),
    FALL_EQUAL4("float32x1(float32x4,float32x4)", COMMUTATIVE, "1.0 if all components feq, else 0.0"),
    FALL_EQUAL8("float32x1(float32x8,float32x8)", COMMUTATIVE, "1.0 if all components feq, else 0.0"),
    FALL_EQUAL16("float32x1(float32x16,float32x16)", COMMUTATIVE, "1.0 if all components feq, else 0.0"),
    FANY_NEQUAL2("float32x1(float32x2,float32x2)", COMMUTATIVE, "1.0 if some component fneu, else 0.0"),
    FANY_NEQUAL3("float32x1(float32x3,float32x3)", COMMUTATIVE, "1.0 if some component fneu, else 0.0"),
    FANY_NEQUAL4("float32x1(float32x4,float32x4)", COMMUTATIVE, "1.0 if some component fneu, else 0.0"),
    FANY_NEQUAL8("float32x1(float32x8,float32x8)", COMMUTATIVE, "1.0 if some component fneu, else 0.0"),
    FANY_NEQUAL16("float32x1(float32x16,float32x16)", COMMUTATIVE, "1.0 if some component fneu, else 0.0"),

    // ---- integer arithmetic -------------------------------------------------------------------
    IADD("int(int,int)", COMMUTATIVE | ASSOCIATIVE | SIGN_BLIND, "a + b (wraps)"),
    ISUB("int(int,int)", SIGN_BLIND, "a - b (wraps)"),
    IMUL("int(int,int)", COMMUTATIVE | ASSOCIATIVE | SIGN_BLIND, "a * b (low bits)"),
    INEG("int(int)", SIGN_BLIND, "-a (wraps)"),
    IABS("int(int)", 0, "|a|; MIN -> MIN"),
    ISIGN("int(int)", 0, "-1, 0 or 1"),
    IDIV("int(int,int)", 0, "signed a / b toward zero; b = 0 -> 0; MIN / -1 -> MIN"),
    UDIV("uint(uint,uint)", 0, "unsigned a / b; b = 0 -> 0"),
    IREM("int(int,int)", 0, "signed remainder, sign of a; b = 0 -> 0"),
    IMOD("int(int,int)", 0, "signed modulo, sign of b; b = 0 -> 0"),
    UMOD("uint(uint,uint)", 0, "unsigned remainder; b = 0 -> 0"),
    IMIN("int(int,int)", COMMUTATIVE | ASSOCIATIVE, "signed minimum"),
    IMAX("int(int,int)", COMMUTATIVE | ASSOCIATIVE, "signed maximum"),
    UMIN("uint(uint,uint)", COMMUTATIVE | ASSOCIATIVE, "unsigned minimum"),
    UMAX("uint(uint,uint)", COMMUTATIVE | ASSOCIATIVE, "unsigned maximum"),
    IMIN3("int(int,int,int)", COMMUTATIVE, "signed minimum of three"),
    IMAX3("int(int,int,int)", COMMUTATIVE, "signed maximum of three"),
    UMIN3("uint(uint,uint,uint)", COMMUTATIVE, "unsigned minimum of three"),
    UMAX3("uint(uint,uint,uint)", COMMUTATIVE, "unsigned maximum of three"),
    IMED3("int(int,int,int)", COMMUTATIVE, "signed median of three"),
    UMED3("uint(uint,uint,uint)", COMMUTATIVE, "unsigned median of three"),
    IMUL_HIGH("int(int,int)", COMMUTATIVE, "high half of the signed double-width product"),
    UMUL_HIGH("uint(uint,uint)", COMMUTATIVE, "high half of the unsigned double-width product"),
    IMUL_2X32_64("int64(int32,int32)", COMMUTATIVE, "full signed 64-bit product of 32-bit values"),
    UMUL_2X32_64("uint64(uint32,uint32)", COMMUTATIVE, "full unsigned 64-bit product of 32-bit values"),
    IADD_SAT("int(int,int)", COMMUTATIVE, "signed a + b, saturating"),
    UADD_SAT("uint(uint,uint)", COMMUTATIVE, "unsigned a + b, saturating"),
    ISUB_SAT("int(int,int)", 0, "signed a - b, saturating"),
    USUB_SAT("uint(uint,uint)", 0, "unsigned a - b, saturating at 0"),
    IHADD("int(int,int)", COMMUTATIVE, "floor((a + b) / 2), signed, no overflow"),
    UHADD("uint(uint,uint)", COMMUTATIVE, "floor((a + b) / 2), unsigned, no overflow"),
    IRHADD("int(int,int)", COMMUTATIVE, "ceil((a + b) / 2), signed, no overflow"),
    URHADD("uint(uint,uint)", COMMUTATIVE, "ceil((a + b) / 2), unsigned, no overflow"),
    UABS_ISUB("uint(int,int)", COMMUTATIVE, "|a - b| of signed values, as unsigned"),
    UABS_USUB("uint(uint,uint)", COMMUTATIVE, "|a - b| of unsigned values"),
    IADD3("int(int,int,int)", COMMUTATIVE | SIGN_BLIND, "a + b + c (wraps)"),

    // ---- integer comparisons ------------------------------------------------------------------
    ILT("bool1(int,int)", 0, "signed a < b"),
    IGE("bool1(int,int)", 0, "signed a >= b"),
    IEQ("bool1(int,int)", COMMUTATIVE | SIGN_BLIND, SizeSet.INTS_AND_BOOL, "a == b"),
    INE("bool1(int,int)", COMMUTATIVE | SIGN_BLIND, SizeSet.INTS_AND_BOOL, "a != b"),
    ULT("bool1(uint,uint)", 0, "unsigned a < b"),
    UGE("bool1(uint,uint)", 0, "unsigned a >= b"),
    BALL_IEQUAL2("bool1x1(intx2,intx2)", COMMUTATIVE, SizeSet.INTS_AND_BOOL, "all components equal"),
    BALL_IEQUAL3("bool1x1(intx3,intx3)", COMMUTATIVE, SizeSet.INTS_AND_BOOL, "all components equal"),
    BALL_IEQUAL4("bool1x1(intx4,intx4)", COMMUTATIVE, SizeSet.INTS_AND_BOOL, "all components equal"),
    BANY_INEQUAL2("bool1x1(intx2,intx2)", COMMUTATIVE, SizeSet.INTS_AND_BOOL, "some component differs"),
    BANY_INEQUAL3("bool1x1(intx3,intx3)", COMMUTATIVE, SizeSet.INTS_AND_BOOL, "some component differs"),
    BANY_INEQUAL4("bool1x1(intx4,intx4)", COMMUTATIVE, SizeSet.INTS_AND_BOOL, "some component differs"),
    BALL_IEQUAL8("bool1x1(intx8,intx8)", COMMUTATIVE, SizeSet.INTS_AND_BOOL, "all components equal"),
    BALL_IEQUAL16("bool1x1(intx16,intx16)", COMMUTATIVE, SizeSet.INTS_AND_BOOL, "all components equal"),
    BANY_INEQUAL8("bool1x1(intx8,intx8)", COMMUTATIVE, SizeSet.INTS_AND_BOOL, "some component differs"),
    BANY_INEQUAL16("bool1x1(intx16,intx16)", COMMUTATIVE, SizeSet.INTS_AND_BOOL, "some component differs"),

    // ---- bitwise ------------------------------------------------------------------------------
    IAND("uint(uint,uint)", COMMUTATIVE | ASSOCIATIVE | SIGN_BLIND, SizeSet.INTS_AND_BOOL, "a & b (also boolean and)"),
    IOR("uint(uint,uint)", COMMUTATIVE | ASSOCIATIVE | SIGN_BLIND, SizeSet.INTS_AND_BOOL, "a | b (also boolean or)"),
    IXOR("uint(uint,uint)", COMMUTATIVE | ASSOCIATIVE | SIGN_BLIND, SizeSet.INTS_AND_BOOL, "a ^ b (also boolean xor)"),
    INOT("uint(uint)", SIGN_BLIND, SizeSet.INTS_AND_BOOL, "~a (also boolean not)"),
    ISHL("int(int,uint32)", SIGN_BLIND, "a << (b mod bits)"),
    ISHR("int(int,uint32)", 0, "a >> (b mod bits), arithmetic"),
    USHR("uint(uint,uint32)", 0, "a >> (b mod bits), logical"),
    UROL("uint(uint,uint32)", SIGN_BLIND, "rotate left by b mod bits"),
    UROR("uint(uint,uint32)", SIGN_BLIND, "rotate right by b mod bits"),
    BIT_COUNT("uint32(uint)", SIGN_BLIND, "number of set bits"),
    FIND_LSB("int32(int)", SIGN_BLIND, "index of the lowest set bit; 0 -> -1"),
    UFIND_MSB("int32(uint)", SIGN_BLIND, "index of the highest set bit; 0 -> -1"),
    IFIND_MSB("int32(int)", 0, "index of the highest bit unlike the sign; 0, -1 -> -1"),
    UCLZ("uint32(uint)", SIGN_BLIND, "leading zero bits; 0 -> bit size"),
    BITFIELD_REVERSE("uint(uint)", SIGN_BLIND, "bit order reversed"),
    UBITFIELD_EXTRACT(
            "uint(uint,int32,int32)",
            0,
            "bits [b, b+c) of a, zero-extended; c = 0 or b >= bits -> 0; clipped at the top bit"),
    IBITFIELD_EXTRACT(
            "int(int,int32,int32)",
            0,
            "bits [b, b+c) of a, sign-extended; c = 0 or b >= bits -> 0; clipped at the top bit"),
    BITFIELD_INSERT(
            "uint(uint,uint,int32,int32)",
            SIGN_BLIND,
            "a with bits [c, c+d) replaced by the low bits of b; d = 0 or c >= bits -> a"),
    BFM("uint32(int32,int32)", 0, "((1 << (a & 31)) - 1) << (b & 31)"),
    BITFIELD_SELECT("uint(uint,uint,uint)", SIGN_BLIND, "(a & b) | (~a & c)"),
    EXTRACT_U8("uint(uint,uint)", 0, SizeSet.INTS, "byte (b mod count) of a, zero-extended"),
    EXTRACT_I8("int(int,int)", 0, SizeSet.INTS, "byte (b mod count) of a, sign-extended"),
    EXTRACT_U16("uint(uint,uint)", 0, SizeSet.FROM16, "half-word (b mod count) of a, zero-extended"),
    EXTRACT_I16("int(int,int)", 0, SizeSet.FROM16, "half-word (b mod count) of a, sign-extended"),
    INSERT_U8("uint(uint,uint)", SIGN_BLIND, SizeSet.INTS, "low byte of a moved to byte (b mod count)"),
    INSERT_U16("uint(uint,uint)", SIGN_BLIND, SizeSet.FROM16, "low half-word of a moved to half-word (b mod count)"),

    // ---- NIR's generic ops (nir_opcodes.py's definitions) ---------------------------------------
    SEQ("float(float,float)", COMMUTATIVE, "1.0 where a == b, else 0.0 (a NaN is unequal)"),
    SNE("float(float,float)", COMMUTATIVE, "1.0 where a != b (a NaN is unequal), else 0.0"),
    SLT("float(float,float)", 0, "1.0 where a < b, else 0.0"),
    SGE("float(float,float)", 0, "1.0 where a >= b, else 0.0"),
    BITZ("bool1(uint,uint32)", 0, SizeSet.INTS, "bit (b mod bits) of a is 0"),
    BITNZ("bool1(uint,uint32)", 0, SizeSet.INTS, "bit (b mod bits) of a is 1"),
    UADD_CARRY("uint(uint,uint)", COMMUTATIVE, SizeSet.INTS, "1 where a + b carries out, else 0"),
    USUB_BORROW("uint(uint,uint)", 0, SizeSet.INTS, "1 where a - b borrows (a < b unsigned), else 0"),
    FFMAZ(
            "float32(float32,float32,float32)",
            COMMUTATIVE,
            "ffma, but a zero factor gives +0 + c (even with inf or NaN)"),
    UFIND_MSB_REV("int32(uint32)", 0, "index of the highest set bit counted from bit 31 (0); 0 -> -1"),
    IFIND_MSB_REV("int32(int32)", 0, "index of the highest bit unlike the sign counted from bit 31; 0, -1 -> -1"),
    UBFE("uint32(uint32,uint32,uint32)", 0, "(c mod 32) bits at (b mod 32) of a, zero-extended; past bit 31: a >> b"),
    IBFE("int32(int32,uint32,uint32)", 0, "(c mod 32) bits at (b mod 32) of a, sign-extended; past bit 31: a >> b"),
    BFI(
            "uint32(uint32,uint32,uint32)",
            0,
            "c with the bits of a replaced by b shifted to a's lowest set bit; a = 0 -> c"),
    ICSEL_EQZ("int(int,int,int)", 0, SizeSet.INTS, "a == 0 ? b : c"),
    I32CSEL_GT("int32(int32,int32,int32)", 0, "a > 0 (signed) ? b : c"),
    I32CSEL_GE("int32(int32,int32,int32)", 0, "a >= 0 (signed) ? b : c"),
    FCSEL_GT("float32(float32,float32,float32)", 0, "a > 0.0 ? b : c (a NaN selects c)"),
    FCSEL_GE("float32(float32,float32,float32)", 0, "a >= 0.0 ? b : c (a NaN selects c)"),
    FISNORMAL("bool1(float)", 0, "a is finite, not zero and not subnormal"),
    UMUL24("int32(int32,int32)", COMMUTATIVE, "low 24 bits of a times low 24 bits of b"),
    IMUL24("int32(int32,int32)", COMMUTATIVE, "low 24 bits of a, sign-extended, times those of b"),
    UMAD24("uint32(uint32,uint32,uint32)", COMMUTATIVE, "umul24(a, b) + c"),
    IMAD24_IR3("int32(int32,int32,int32)", COMMUTATIVE, "imul24(a, b) + c (ir3's mad.s24)"),
    UMUL24_RELAXED("uint32(uint32,uint32)", COMMUTATIVE, "a * b (for operands of 24 bits)"),
    IMUL24_RELAXED("int32(int32,int32)", COMMUTATIVE, "a * b (for operands of 24 bits)"),
    UMAD24_RELAXED("uint32(uint32,uint32,uint32)", COMMUTATIVE, "a * b + c (for operands of 24 bits)"),
    AMUL("int(int,int)", COMMUTATIVE, SizeSet.INTS, "a * b (an address computation)"),
    IMAD("int(int,int,int)", COMMUTATIVE, SizeSet.INTS, "a * b + c"),
    UMUL_LOW("uint32(uint32,uint32)", COMMUTATIVE, "low 16 bits of a times low 16 bits of b"),
    UMUL_32X16("uint32(uint32,uint32)", 0, "a times the low 16 bits of b, zero-extended"),
    IMUL_32X16("int32(int32,int32)", 0, "a times the low 16 bits of b, sign-extended"),
    UDIV_ALIGNED_4("uint(uint)", 0, SizeSet.INTS, "a >> 2 (a / 4 for a multiple of 4)"),
    SDOT_4X8_IADD("int32(uint32,uint32,int32)", COMMUTATIVE, "a's bytes dotted with b's, sign-extended, plus c"),
    UDOT_4X8_UADD("uint32(uint32,uint32,uint32)", COMMUTATIVE, "a's bytes dotted with b's, zero-extended, plus c"),
    SUDOT_4X8_IADD("int32(uint32,uint32,int32)", 0, "a's bytes sign-extended dotted with b's zero-extended, plus c"),
    SDOT_4X8_IADD_SAT("int32(uint32,uint32,int32)", COMMUTATIVE, "sdot_4x8_iadd, the sum clamped to the int32 range"),
    UDOT_4X8_UADD_SAT(
            "int32(uint32,uint32,int32)",
            COMMUTATIVE,
            "udot_4x8_uadd with c sign-extended, summed modulo 2^64, then min(sum, 0xffffffff) unsigned (NIR's"
                    + " definition: a negative sum saturates)"),
    SUDOT_4X8_IADD_SAT("int32(uint32,uint32,int32)", 0, "sudot_4x8_iadd, the sum clamped to the int32 range"),
    SDOT_2X16_IADD("int32(uint32,uint32,int32)", COMMUTATIVE, "a's halves dotted with b's, sign-extended, plus c"),
    UDOT_2X16_UADD("uint32(uint32,uint32,uint32)", COMMUTATIVE, "a's halves dotted with b's, zero-extended, plus c"),
    SDOT_2X16_IADD_SAT("int32(uint32,uint32,int32)", COMMUTATIVE, "sdot_2x16_iadd, the sum clamped to the int32 range"),
    UDOT_2X16_UADD_SAT(
            "int32(uint32,uint32,int32)",
            COMMUTATIVE,
            "udot_2x16_uadd with c sign-extended, summed modulo 2^64, then min(sum, 0xffffffff) unsigned (NIR's"
                    + " definition: a negative sum saturates)"),
    PACK_HALF_2X16_RTZ_SPLIT("uint32(float32,float32)", 0, "f16 toward zero (a) | f16 toward zero (b) << 16"),
    PACK_32_4X8_SPLIT("uint32(uint8,uint8,uint8,uint8)", 0, "a | b << 8 | c << 16 | d << 24"),
    F2FMP("float16(float32)", 0, "f2f16; a conversion reading it may read f2f32 (NIR's mediump: MediumPrecision)"),
    I2IMP("int16(int32)", 0, "i2i16; a conversion reading it may read i2i32 (NIR's mediump: MediumPrecision)"),
    F2IMP("int16(float32)", 0, "f2i16; a conversion reading it may read f2i32 (NIR's mediump: MediumPrecision)"),
    F2UMP("uint16(float32)", 0, "f2u16; a conversion reading it may read f2u32 (NIR's mediump: MediumPrecision)"),
    I2FMP("float16(int32)", 0, "i2f16; a conversion reading it may read i2f32 (NIR's mediump: MediumPrecision)"),
    U2FMP("float16(uint32)", 0, "u2f16; a conversion reading it may read u2f32 (NIR's mediump: MediumPrecision)"),
    IMADSH_MIX16(
            "int32(int32,int32,int32)",
            0,
            "(a's low half times b's high half) << 16, plus c: ir3's mad.sh mix; NIR's constant folding gives c"),
    MSAD_4X8(
            "uint32(uint32,uint32,uint32)",
            0,
            "c plus, for each byte of a that is not 0, its absolute difference from b's byte (AMD's v_msad_u8)"),
    SHFR("uint32(uint32,uint32,uint32)", 0, "the 64 bits a:b shifted right by (c mod 32), low 32 bits"),

    // ---- conversions --------------------------------------------------------------------------
    F2F16("float16(float)", 0, "to f16, nearest even"),
    F2F16_RTNE("float16(float)", 0, "to f16, nearest even"),
    F2F16_RTZ("float16(float)", 0, "to f16, toward zero (finite stays finite)"),
    F2F32("float32(float)", 0, "to f32, nearest even"),
    F2F64("float64(float)", 0, "to f64 (exact)"),
    F2I8("int8(float)", 0, "truncate; saturate; NaN -> 0"),
    F2I16("int16(float)", 0, "truncate; saturate; NaN -> 0"),
    F2I32("int32(float)", 0, "truncate; saturate; NaN -> 0"),
    F2I64("int64(float)", 0, "truncate; saturate; NaN -> 0"),
    F2U8("uint8(float)", 0, "truncate; saturate (negative -> 0); NaN -> 0"),
    F2U16("uint16(float)", 0, "truncate; saturate (negative -> 0); NaN -> 0"),
    F2U32("uint32(float)", 0, "truncate; saturate (negative -> 0); NaN -> 0"),
    F2U64("uint64(float)", 0, "truncate; saturate (negative -> 0); NaN -> 0"),
    I2F16("float16(int)", 0, SizeSet.ALL, "signed to f16, nearest even; a 1-bit value is -1 or 0"),
    I2F32("float32(int)", 0, SizeSet.ALL, "signed to f32, nearest even; a 1-bit value is -1 or 0"),
    I2F64("float64(int)", 0, SizeSet.ALL, "signed to f64, nearest even; a 1-bit value is -1 or 0"),
    U2F16("float16(uint)", 0, SizeSet.ALL, "unsigned to f16, nearest even"),
    U2F32("float32(uint)", 0, SizeSet.ALL, "unsigned to f32, nearest even"),
    U2F64("float64(uint)", 0, SizeSet.ALL, "unsigned to f64, nearest even"),
    I2I8("int8(int)", 0, SizeSet.ALL, "sign-extend or truncate; a 1-bit value is -1 or 0"),
    I2I16("int16(int)", 0, SizeSet.ALL, "sign-extend or truncate; a 1-bit value is -1 or 0"),
    I2I32("int32(int)", 0, SizeSet.ALL, "sign-extend or truncate; a 1-bit value is -1 or 0"),
    I2I64("int64(int)", 0, SizeSet.ALL, "sign-extend or truncate; a 1-bit value is -1 or 0"),
    U2U8("uint8(uint)", 0, SizeSet.ALL, "zero-extend or truncate"),
    U2U16("uint16(uint)", 0, SizeSet.ALL, "zero-extend or truncate"),
    U2U32("uint32(uint)", 0, SizeSet.ALL, "zero-extend or truncate"),
    U2U64("uint64(uint)", 0, SizeSet.ALL, "zero-extend or truncate"),
    I2I1("int1(int)", 0, SizeSet.ALL, "the lowest bit (NIR's i2i1)"),
    U2U1("uint1(uint)", 0, SizeSet.ALL, "the lowest bit (NIR's u2u1)"),
    B2F16("float16(bool1)", 0, "true -> 1.0, false -> 0.0"),
    B2F32("float32(bool1)", 0, "true -> 1.0, false -> 0.0"),
    B2F64("float64(bool1)", 0, "true -> 1.0, false -> 0.0"),
    B2I8("int8(bool1)", 0, "true -> 1, false -> 0"),
    B2I16("int16(bool1)", 0, "true -> 1, false -> 0"),
    B2I32("int32(bool1)", 0, "true -> 1, false -> 0"),
    B2I64("int64(bool1)", 0, "true -> 1, false -> 0"),
    F2B1("bool1(float)", 0, "a != 0.0 (NaN -> true)"),
    I2B1("bool1(int)", SIGN_BLIND, "a != 0"),

    // ---- packing ------------------------------------------------------------------------------
    PACK_64_2X32_SPLIT("uint64(uint32,uint32)", 0, "a | b << 32"),
    PACK_64_2X32_SPLIT_X("uint64(uint64,uint32)", 0, "a with its low 32 bits replaced by b"),
    PACK_64_2X32_SPLIT_Y("uint64(uint64,uint32)", 0, "a with its high 32 bits replaced by b"),
    UNPACK_64_2X32_SPLIT_X("uint32(uint64)", 0, "low 32 bits"),
    UNPACK_64_2X32_SPLIT_Y("uint32(uint64)", 0, "high 32 bits"),
    PACK_64_2X32("uint64x1(uint32x2)", 0, "a.x | a.y << 32"),
    UNPACK_64_2X32("uint32x2(uint64x1)", 0, "(low, high) 32-bit halves"),
    PACK_64_4X16("uint64x1(uint16x4)", 0, "four 16-bit fields, x lowest"),
    UNPACK_64_4X16("uint16x4(uint64x1)", 0, "four 16-bit fields, x lowest"),
    PACK_32_2X16("uint32x1(uint16x2)", 0, "a.x | a.y << 16"),
    UNPACK_32_2X16("uint16x2(uint32x1)", 0, "(low, high) 16-bit halves"),
    PACK_32_2X16_SPLIT("uint32(uint16,uint16)", 0, "a | b << 16"),
    UNPACK_32_2X16_SPLIT_X("uint16(uint32)", 0, "low 16 bits"),
    UNPACK_32_2X16_SPLIT_Y("uint16(uint32)", 0, "high 16 bits"),
    PACK_32_4X8("uint32x1(uint8x4)", 0, "four bytes, x lowest"),
    UNPACK_32_4X8("uint8x4(uint32x1)", 0, "four bytes, x lowest"),
    PACK_HALF_2X16("uint32x1(float32x2)", 0, "two f32 rounded to f16, x low"),
    UNPACK_HALF_2X16("float32x2(uint32x1)", 0, "two f16 widened to f32, x low"),
    PACK_HALF_2X16_SPLIT("uint32(float32,float32)", 0, "f16(a) | f16(b) << 16"),
    UNPACK_HALF_2X16_SPLIT_X("float32(uint32)", 0, "f32 of the low f16"),
    UNPACK_HALF_2X16_SPLIT_Y("float32(uint32)", 0, "f32 of the high f16"),
    PACK_UNORM_4X8("uint32x1(float32x4)", 0, "GLSL packUnorm4x8"),
    UNPACK_UNORM_4X8("float32x4(uint32x1)", 0, "GLSL unpackUnorm4x8"),
    PACK_SNORM_4X8("uint32x1(float32x4)", 0, "GLSL packSnorm4x8"),
    UNPACK_SNORM_4X8("float32x4(uint32x1)", 0, "GLSL unpackSnorm4x8"),
    PACK_UNORM_2X16("uint32x1(float32x2)", 0, "GLSL packUnorm2x16"),
    UNPACK_UNORM_2X16("float32x2(uint32x1)", 0, "GLSL unpackUnorm2x16"),
    PACK_SNORM_2X16("uint32x1(float32x2)", 0, "GLSL packSnorm2x16"),
    UNPACK_SNORM_2X16("float32x2(uint32x1)", 0, "GLSL unpackSnorm2x16"),
    PACK_UINT_2X16("uint32x1(uint32x2)", 0, "min(a.x, 0xffff) | min(a.y, 0xffff) << 16 (NIR's pack_uint_2x16)"),
    PACK_UVEC2_TO_UINT("uint32x1(uint32x2)", 0, "(a.x & 0xffff) | a.y << 16 (NIR's pack_uvec2_to_uint)"),
    PACK_UVEC4_TO_UINT(
            "uint32x1(uint32x4)", 0, "a.x | a.y << 8 | a.z << 16 | a.w << 24, unmasked (NIR's pack_uvec4_to_uint)");

    private final String opName;
    private final OperandType output;
    private final OperandType[] inputs;
    private final int flags;
    private final int legalSizes;
    /**
     * The evaluation function, made on first use ({@link OpEvals}): a command that evaluates a
     * handful of ops does not link two hundred lambdas at start-up. The single-check idiom of
     * {@code String.hashCode}: every thread that finds it unset computes the same immutable value.
     */
    private Eval eval;

    private final String description;

    Op(String signature, int flags, String description) {
        this(signature, flags, SizeSet.DEFAULT, description);
    }

    Op(String signature, int flags, int sizes, String description) {
        this.opName = name().toLowerCase(Locale.ROOT);
        int open = signature.indexOf('(');
        this.output = OperandType.parse(signature.substring(0, open));
        String[] ins = signature.substring(open + 1, signature.length() - 1).split(",");
        this.inputs = new OperandType[ins.length];
        for (int i = 0; i < ins.length; i++) inputs[i] = OperandType.parse(ins[i].trim());
        this.flags = flags;
        this.description = description;
        OperandType firstUnsized = !output.isSized() ? output : null;
        for (OperandType t : inputs) {
            if (firstUnsized == null && !t.isSized()) firstUnsized = t;
        }
        if (firstUnsized == null) {
            this.legalSizes = 0;
        } else {
            this.legalSizes =
                    sizes == SizeSet.DEFAULT ? firstUnsized.typeClass().defaultSizes() : sizes;
        }
        boolean horizontal = !output.isPerComponent();
        for (OperandType t : inputs) {
            if (t.isPerComponent() == horizontal) {
                throw new IllegalStateException(opName + ": mixes per-component and fixed-size operands");
            }
        }
    }

    private static final Map<String, Op> BY_NAME;

    static {
        Map<String, Op> m = new HashMap<>();
        for (Op op : values()) m.put(op.opName, op);
        BY_NAME = Collections.unmodifiableMap(m);
    }

    /**
     * NIR's generic ALU ops that Lathe's own do not cover, from {@link #SEQ} to {@link #SHFR} in
     * the table's order, and {@link #I2I1}, {@link #U2U1}: the analyses that treat them alike
     * (range transfer on constants only, the SMT encodings) name them through this set.
     */
    public static final java.util.Set<Op> NIR_GENERIC = nirGeneric();

    private static java.util.Set<Op> nirGeneric() {
        java.util.EnumSet<Op> s = java.util.EnumSet.range(SEQ, SHFR);
        s.add(I2I1);
        s.add(U2U1);
        return java.util.Collections.unmodifiableSet(s);
    }

    /**
     * NIR's horizontal ops that Lathe's own do not cover (the wider and float-valued vector
     * comparisons, fdot8/16, the replicated dot products, fsumN, the uvec packs): the analyses
     * that treat them alike (no range transfer, no SMT encoding) name them through this set.
     */
    public static final java.util.Set<Op> NIR_HORIZONTAL = java.util.Collections.unmodifiableSet(java.util.EnumSet.of(
            FDOT8,
            FDOT16,
            FDOT2_REPLICATED,
            FDOT3_REPLICATED,
            FDOT4_REPLICATED,
            FDPH_REPLICATED,
            FSUM2,
            FSUM3,
            FSUM4,
            BALL_FEQUAL8,
            BALL_FEQUAL16,
            BANY_FNEQUAL8,
            BANY_FNEQUAL16,
            FALL_EQUAL2,
            FALL_EQUAL3,
            FALL_EQUAL4,
            FALL_EQUAL8,
            FALL_EQUAL16,
            FANY_NEQUAL2,
            FANY_NEQUAL3,
            FANY_NEQUAL4,
            FANY_NEQUAL8,
            FANY_NEQUAL16,
            BALL_IEQUAL8,
            BALL_IEQUAL16,
            BANY_INEQUAL8,
            BANY_INEQUAL16,
            PACK_UINT_2X16,
            PACK_UVEC2_TO_UINT,
            PACK_UVEC4_TO_UINT));

    /** The op called {@code name}, or null. */
    public static Op byName(String name) {
        return BY_NAME.get(name);
    }

    /** The NIR-style name, e.g. {@code pack_64_2x32_split}. */
    public String opName() {
        return opName;
    }

    public OperandType output() {
        return output;
    }

    public int numInputs() {
        return inputs.length;
    }

    public OperandType input(int i) {
        return inputs[i];
    }

    public int flags() {
        return flags;
    }

    public boolean isCommutative() {
        return (flags & COMMUTATIVE) != 0;
    }

    /**
     * Whether the op only moves bits from its sources to its result ({@code mov}, {@code vecN},
     * and {@code bcsel}'s two value operands): a NaN it moves keeps its bits, under the NaN
     * contract of {@code ir/README.md}.
     */
    public boolean movesData() {
        return this == MOV
                || this == VEC2
                || this == VEC3
                || this == VEC4
                || this == VEC8
                || this == VEC16
                || this == BCSEL;
    }

    /**
     * Whether the op computes a float: a NaN it returns may be any NaN under the NaN contract
     * (the evaluation here returns the canonical quiet NaN, {@code fneg} and {@code fabs} the
     * operand with its sign bit changed).
     */
    public boolean computesFloat() {
        return output.typeClass() == TypeClass.FLOAT;
    }

    /**
     * Whether source {@code i} is read as bits — by an op that neither reads it as a float nor
     * merely moves it: a NaN there that a float operation made (whose bits are open) makes the
     * result depend on bits the contract leaves open.
     */
    public boolean readsBits(int i) {
        if (input(i).typeClass() == TypeClass.FLOAT) return false;
        return !movesData() || this == BCSEL && i == 0;
    }

    /** See {@link OpFlag#SIGN_BLIND}. */
    public boolean isSignBlind() {
        return (flags & SIGN_BLIND) != 0;
    }

    public boolean isAssociative() {
        return (flags & ASSOCIATIVE) != 0;
    }

    /** True for ops whose operands have fixed component counts (fdot3, vec4, pack_64_2x32 …). */
    public boolean isHorizontal() {
        return !output.isPerComponent();
    }

    /** Whether any operand is unsized (so the instruction chooses a bit size). */
    public boolean hasUnsizedOperands() {
        return legalSizes != 0;
    }

    /** The legal bit sizes of the unsized operands, as a {@link Bits#sizeFlag} set (0: none). */
    public int legalBitSizes() {
        return legalSizes;
    }

    public boolean isLegalBitSize(int bits) {
        return Bits.isValidBitSize(bits) && (legalSizes & Bits.sizeFlag(bits)) != 0;
    }

    /** The legal unsized bit sizes in increasing order. */
    public List<Integer> legalBitSizeList() {
        return Bits.sizesIn(legalSizes);
    }

    /** The bit size of the result for an instruction whose unsized size is {@code unsized}. */
    public int outputBits(int unsized) {
        return output.isSized() ? output.bitSize() : unsized;
    }

    public int inputBits(int i, int unsized) {
        return inputs[i].isSized() ? inputs[i].bitSize() : unsized;
    }

    /** Components read from source i when the result has {@code destComponents}. */
    public int inputComponents(int i, int destComponents) {
        return inputs[i].isPerComponent() ? destComponents : inputs[i].components();
    }

    public String description() {
        return description;
    }

    public Eval eval() {
        Eval e = eval;
        if (e == null) {
            e = OpEvals.of(this);
            if (isHorizontal() != (e instanceof Eval.Horizontal)) {
                throw new IllegalStateException(opName + ": evaluation kind does not match its signature");
            }
            eval = e;
        }
        return e;
    }

    /**
     * Evaluates the op. {@code srcs[i]} holds the components read from source i (already
     * swizzled, {@link #inputComponents} of them); the result has {@code destComponents}
     * components, each masked to {@link #outputBits}.
     */
    public long[] evaluate(int unsizedBits, int destComponents, long[][] srcs) {
        long[] dst = new long[destComponents];
        evaluateInto(unsizedBits, srcs, dst);
        return dst;
    }

    /** As {@link #evaluate}, into a caller-provided array whose length is the result's size. */
    public void evaluateInto(int unsizedBits, long[][] srcs, long[] dst) {
        long m = Bits.mask(outputBits(unsizedBits));
        Eval eval = eval();
        if (eval instanceof Eval.PerComponent pc) {
            Eval.ComponentFn fn = pc.fn();
            int n = srcs.length;
            for (int c = 0; c < dst.length; c++) {
                long a = srcs[0][c];
                long b = n > 1 ? srcs[1][c] : 0;
                long x = n > 2 ? srcs[2][c] : 0;
                long y = n > 3 ? srcs[3][c] : 0;
                dst[c] = fn.apply(a, b, x, y, unsizedBits) & m;
            }
        } else {
            ((Eval.Horizontal) eval).fn().apply(srcs, dst, unsizedBits);
            for (int c = 0; c < dst.length; c++) dst[c] &= m;
        }
    }

    /**
     * How nir_opcodes.py defines this op otherwise than this table, in words; null where NIR's
     * definition is this table's ({@link NirDefinitions}).
     */
    public String nirDifference() {
        return NirDefinitions.difference(this);
    }

    /**
     * Where NIR leaves this op's result undefined for these operands (as {@link #evaluate} reads
     * them: a float conversion out of range, a bitfield past the top bit, an operand outside an
     * op's stated domain, a NaN packed as a normalized integer), in words; null where NIR defines
     * it ({@link NirDefinitions}).
     */
    public String nirUndefined(int unsizedBits, long[][] srcs) {
        return NirDefinitions.undefined(this, unsizedBits, srcs);
    }

    /** Whether nir_opcodes.py has this op at this unsized bit size (its bitfield ops, ifind_msb, uclz are 32-bit only). */
    public boolean inNirAt(int unsizedBits) {
        return NirDefinitions.hasSize(this, unsizedBits);
    }

    /** As {@link #evaluate}, under NIR's definition of the op where it differs ({@link #nirDifference}). */
    public long[] evaluateAsNir(int unsizedBits, int destComponents, long[][] srcs) {
        Eval nir = NirDefinitions.eval(this);
        if (nir == null) return evaluate(unsizedBits, destComponents, srcs);
        long[] dst = new long[destComponents];
        long m = Bits.mask(outputBits(unsizedBits));
        if (nir instanceof Eval.PerComponent pc) {
            for (int c = 0; c < dst.length; c++) {
                dst[c] = pc.fn()
                                .apply(
                                        srcs[0][c],
                                        srcs.length > 1 ? srcs[1][c] : 0,
                                        srcs.length > 2 ? srcs[2][c] : 0,
                                        srcs.length > 3 ? srcs[3][c] : 0,
                                        unsizedBits)
                        & m;
            }
        } else {
            ((Eval.Horizontal) nir).fn().apply(srcs, dst, unsizedBits);
            for (int c = 0; c < dst.length; c++) dst[c] &= m;
        }
        return dst;
    }

    /** The signature as the op listing shows it, e.g. {@code float(float, float)}. */
    public String signature() {
        StringBuilder sb = new StringBuilder(output.toString()).append('(');
        for (int i = 0; i < inputs.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append(inputs[i]);
        }
        return sb.append(')').toString();
    }
}
