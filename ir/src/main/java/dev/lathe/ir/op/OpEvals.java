package dev.lathe.ir.op;

/**
 * The evaluation function of every op, by a switch: a case links its lambdas only when it first
 * runs, so the op table itself costs no lambda at start-up (a compile evaluates a few ops, while
 * building all two hundred took about 16 ms of a cold command). {@link Op#eval} keeps each one
 * after its first use. The meanings are documented on the functions ({@link FloatFns},
 * {@link IntFns}, {@link ConvertFns}, {@link PackFns}) and in {@code ir/README.md}.
 */
final class OpEvals {
    private OpEvals() {}

    static Eval of(Op op) {
        return switch (op) {
            case MOV -> Eval.unary((a, n) -> a);
            case VEC2 -> Eval.horizontal(PackFns::vec);
            case VEC3 -> Eval.horizontal(PackFns::vec);
            case VEC4 -> Eval.horizontal(PackFns::vec);
            case VEC8 -> Eval.horizontal(PackFns::vec);
            case VEC16 -> Eval.horizontal(PackFns::vec);
            case BCSEL -> Eval.ternary(IntFns::bcsel);
            case FADD -> Eval.binary(FloatFns::fadd);
            case FSUB -> Eval.binary(FloatFns::fsub);
            case FMUL -> Eval.binary(FloatFns::fmul);
            case FMULZ -> Eval.binary(FloatFns::fmulz);
            case FDIV -> Eval.binary(FloatFns::fdiv);
            case FFMA -> Eval.ternary(FloatFns::ffma);
            case FLRP -> Eval.ternary(FloatFns::flrp);
            case FNEG -> Eval.unary(FloatFns::fneg);
            case FABS -> Eval.unary(FloatFns::fabs);
            case FSAT -> Eval.unary(FloatFns::fsat);
            case FSAT_SIGNED -> Eval.unary(FloatFns::fsatSigned);
            case FCLAMP_POS -> Eval.unary(FloatFns::fclampPos);
            case FSIGN -> Eval.unary(FloatFns::fsign);
            case FMIN -> Eval.binary(FloatFns::fmin);
            case FMAX -> Eval.binary(FloatFns::fmax);
            case FMIN3 -> Eval.ternary(FloatFns::fmin3);
            case FMAX3 -> Eval.ternary(FloatFns::fmax3);
            case FMED3 -> Eval.ternary(FloatFns::fmed3);
            case FFLOOR -> Eval.unary(FloatFns::ffloor);
            case FCEIL -> Eval.unary(FloatFns::fceil);
            case FTRUNC -> Eval.unary(FloatFns::ftrunc);
            case FROUND_EVEN -> Eval.unary(FloatFns::froundEven);
            case FFRACT -> Eval.unary(FloatFns::ffract);
            case FMOD -> Eval.binary(FloatFns::fmod);
            case FREM -> Eval.binary(FloatFns::frem);
            case FRCP -> Eval.unary(FloatFns::frcp);
            case FRSQ -> Eval.unary(FloatFns::frsq);
            case FSQRT -> Eval.unary(FloatFns::fsqrt);
            case FEXP2 -> Eval.unary(FloatFns::fexp2);
            case FLOG2 -> Eval.unary(FloatFns::flog2);
            case FPOW -> Eval.binary(FloatFns::fpow);
            case FSIN -> Eval.unary(FloatFns::fsin);
            case FCOS -> Eval.unary(FloatFns::fcos);
            case LDEXP -> Eval.binary(FloatFns::ldexp);
            case FQUANTIZE2F16 -> Eval.unary(FloatFns::fquantize2f16);
            case FISNAN -> Eval.unary(FloatFns::fisnan);
            case FISFINITE -> Eval.unary(FloatFns::fisfinite);
            case FCSEL -> Eval.ternary(FloatFns::fcsel);
            case FDOT2 -> Eval.horizontal(FloatFns.fdot(2));
            case FDOT3 -> Eval.horizontal(FloatFns.fdot(3));
            case FDOT4 -> Eval.horizontal(FloatFns.fdot(4));
            case FDPH -> Eval.horizontal(FloatFns::fdph);
            case FDOT8 -> Eval.horizontal(FloatFns.fdot(8));
            case FDOT16 -> Eval.horizontal(FloatFns.fdot(16));
            case FSUM2, FSUM3, FSUM4 -> Eval.horizontal(FloatFns::fsum);
            case FDOT2_REPLICATED -> Eval.horizontal(FloatFns.replicated(FloatFns.fdot(2)));
            case FDOT3_REPLICATED -> Eval.horizontal(FloatFns.replicated(FloatFns.fdot(3)));
            case FDOT4_REPLICATED -> Eval.horizontal(FloatFns.replicated(FloatFns.fdot(4)));
            case FDPH_REPLICATED -> Eval.horizontal(FloatFns.replicated(FloatFns::fdph));
            case FLT -> Eval.binary(FloatFns::flt);
            case FGE -> Eval.binary(FloatFns::fge);
            case FEQ -> Eval.binary(FloatFns::feq);
            case FNEU -> Eval.binary(FloatFns::fneu);
            case FLTU -> Eval.binary(FloatFns::fltu);
            case FGEU -> Eval.binary(FloatFns::fgeu);
            case FEQU -> Eval.binary(FloatFns::fequ);
            case FNEO -> Eval.binary(FloatFns::fneo);
            case FUNORD -> Eval.binary(FloatFns::funord);
            case FORD -> Eval.binary(FloatFns::ford);
            case BALL_FEQUAL2, BALL_FEQUAL3, BALL_FEQUAL4, BALL_FEQUAL8, BALL_FEQUAL16 ->
                Eval.horizontal(FloatFns::fallEqual);
            case BANY_FNEQUAL2, BANY_FNEQUAL3, BANY_FNEQUAL4, BANY_FNEQUAL8, BANY_FNEQUAL16 ->
                Eval.horizontal(FloatFns::fanyNequal);
            case FALL_EQUAL2, FALL_EQUAL3, FALL_EQUAL4, FALL_EQUAL8, FALL_EQUAL16 ->
                Eval.horizontal(FloatFns::fallEqualFloat);
            case FANY_NEQUAL2, FANY_NEQUAL3, FANY_NEQUAL4, FANY_NEQUAL8, FANY_NEQUAL16 ->
                Eval.horizontal(FloatFns::fanyNequalFloat);
            case IADD -> Eval.binary(IntFns::iadd);
            case ISUB -> Eval.binary(IntFns::isub);
            case IMUL -> Eval.binary(IntFns::imul);
            case INEG -> Eval.unary(IntFns::ineg);
            case IABS -> Eval.unary(IntFns::iabs);
            case ISIGN -> Eval.unary(IntFns::isign);
            case IDIV -> Eval.binary(IntFns::idiv);
            case UDIV -> Eval.binary(IntFns::udiv);
            case IREM -> Eval.binary(IntFns::irem);
            case IMOD -> Eval.binary(IntFns::imod);
            case UMOD -> Eval.binary(IntFns::umod);
            case IMIN -> Eval.binary(IntFns::imin);
            case IMAX -> Eval.binary(IntFns::imax);
            case UMIN -> Eval.binary(IntFns::umin);
            case UMAX -> Eval.binary(IntFns::umax);
            case IMIN3 -> Eval.ternary(IntFns::imin3);
            case IMAX3 -> Eval.ternary(IntFns::imax3);
            case UMIN3 -> Eval.ternary(IntFns::umin3);
            case UMAX3 -> Eval.ternary(IntFns::umax3);
            case IMED3 -> Eval.ternary(IntFns::imed3);
            case UMED3 -> Eval.ternary(IntFns::umed3);
            case IMUL_HIGH -> Eval.binary(IntFns::imulHigh);
            case UMUL_HIGH -> Eval.binary(IntFns::umulHigh);
            case IMUL_2X32_64 -> Eval.binary((a, b, n) -> Bits.sext(a, 32) * Bits.sext(b, 32));
            case UMUL_2X32_64 -> Eval.binary((a, b, n) -> (a & 0xffffffffL) * (b & 0xffffffffL));
            case IADD_SAT -> Eval.binary(IntFns::iaddSat);
            case UADD_SAT -> Eval.binary(IntFns::uaddSat);
            case ISUB_SAT -> Eval.binary(IntFns::isubSat);
            case USUB_SAT -> Eval.binary(IntFns::usubSat);
            case IHADD -> Eval.binary(IntFns::ihadd);
            case UHADD -> Eval.binary(IntFns::uhadd);
            case IRHADD -> Eval.binary(IntFns::irhadd);
            case URHADD -> Eval.binary(IntFns::urhadd);
            case UABS_ISUB -> Eval.binary(IntFns::uabsIsub);
            case UABS_USUB -> Eval.binary(IntFns::uabsUsub);
            case IADD3 -> Eval.ternary(IntFns::iadd3);
            case ILT -> Eval.binary(IntFns::ilt);
            case IGE -> Eval.binary(IntFns::ige);
            case IEQ -> Eval.binary(IntFns::ieq);
            case INE -> Eval.binary(IntFns::ine);
            case ULT -> Eval.binary(IntFns::ult);
            case UGE -> Eval.binary(IntFns::uge);
            case BALL_IEQUAL2, BALL_IEQUAL3, BALL_IEQUAL4, BALL_IEQUAL8, BALL_IEQUAL16 ->
                Eval.horizontal(IntFns::ballIequal);
            case BANY_INEQUAL2, BANY_INEQUAL3, BANY_INEQUAL4, BANY_INEQUAL8, BANY_INEQUAL16 ->
                Eval.horizontal(IntFns::banyInequal);
            case IAND -> Eval.binary(IntFns::iand);
            case IOR -> Eval.binary(IntFns::ior);
            case IXOR -> Eval.binary(IntFns::ixor);
            case INOT -> Eval.unary(IntFns::inot);
            case ISHL -> Eval.binary(IntFns::ishl);
            case ISHR -> Eval.binary(IntFns::ishr);
            case USHR -> Eval.binary(IntFns::ushr);
            case UROL -> Eval.binary(IntFns::urol);
            case UROR -> Eval.binary(IntFns::uror);
            case BIT_COUNT -> Eval.unary(IntFns::bitCount);
            case FIND_LSB -> Eval.unary(IntFns::findLsb);
            case UFIND_MSB -> Eval.unary(IntFns::ufindMsb);
            case IFIND_MSB -> Eval.unary(IntFns::ifindMsb);
            case UCLZ -> Eval.unary(IntFns::uclz);
            case BITFIELD_REVERSE -> Eval.unary(IntFns::bitfieldReverse);
            case UBITFIELD_EXTRACT -> Eval.ternary(IntFns::ubitfieldExtract);
            case IBITFIELD_EXTRACT -> Eval.ternary(IntFns::ibitfieldExtract);
            case BITFIELD_INSERT -> Eval.quaternary(IntFns::bitfieldInsert);
            case BFM -> Eval.binary(IntFns::bfm);
            case BITFIELD_SELECT -> Eval.ternary(IntFns::bitfieldSelect);
            case EXTRACT_U8 -> Eval.binary(IntFns.extract(8, false));
            case EXTRACT_I8 -> Eval.binary(IntFns.extract(8, true));
            case EXTRACT_U16 -> Eval.binary(IntFns.extract(16, false));
            case EXTRACT_I16 -> Eval.binary(IntFns.extract(16, true));
            case INSERT_U8 -> Eval.binary(IntFns.insert(8));
            case INSERT_U16 -> Eval.binary(IntFns.insert(16));
            case SEQ -> Eval.binary(NirFns::seq);
            case SNE -> Eval.binary(NirFns::sne);
            case SLT -> Eval.binary(NirFns::slt);
            case SGE -> Eval.binary(NirFns::sge);
            case BITZ -> Eval.binary(NirFns::bitz);
            case BITNZ -> Eval.binary(NirFns::bitnz);
            case UADD_CARRY -> Eval.binary(NirFns::uaddCarry);
            case USUB_BORROW -> Eval.binary(NirFns::usubBorrow);
            case FFMAZ -> Eval.ternary(NirFns::ffmaz);
            case UFIND_MSB_REV -> Eval.unary(NirFns::ufindMsbRev);
            case IFIND_MSB_REV -> Eval.unary(NirFns::ifindMsbRev);
            case UBFE -> Eval.ternary(NirFns::ubfe);
            case IBFE -> Eval.ternary(NirFns::ibfe);
            case BFI -> Eval.ternary(NirFns::bfi);
            case ICSEL_EQZ -> Eval.ternary(NirFns::icselEqz);
            case I32CSEL_GT -> Eval.ternary(NirFns::i32cselGt);
            case I32CSEL_GE -> Eval.ternary(NirFns::i32cselGe);
            case FCSEL_GT -> Eval.ternary(NirFns::fcselGt);
            case FCSEL_GE -> Eval.ternary(NirFns::fcselGe);
            case FISNORMAL -> Eval.unary(NirFns::fisnormal);
            case UMUL24 -> Eval.binary(NirFns::umul24);
            case IMUL24 -> Eval.binary(NirFns::imul24);
            case UMAD24 -> Eval.ternary(NirFns::umad24);
            case IMAD24_IR3 -> Eval.ternary(NirFns::imad24);
            case UMUL24_RELAXED, IMUL24_RELAXED, AMUL -> Eval.binary(NirFns::mul);
            case UMAD24_RELAXED, IMAD -> Eval.ternary(NirFns::mad);
            case UMUL_LOW -> Eval.binary(NirFns::umulLow);
            case UMUL_32X16 -> Eval.binary(NirFns::umul32x16);
            case IMUL_32X16 -> Eval.binary(NirFns::imul32x16);
            case UDIV_ALIGNED_4 -> Eval.unary(NirFns::udivAligned4);
            case SDOT_4X8_IADD,
                    UDOT_4X8_UADD,
                    SUDOT_4X8_IADD,
                    SDOT_4X8_IADD_SAT,
                    UDOT_4X8_UADD_SAT,
                    SUDOT_4X8_IADD_SAT,
                    SDOT_2X16_IADD,
                    UDOT_2X16_UADD,
                    SDOT_2X16_IADD_SAT,
                    UDOT_2X16_UADD_SAT -> {
                IntegerDot dot = IntegerDot.of(op);
                yield Eval.ternary((a, b, c, n) -> dot.evaluate(a, b, c));
            }
            case PACK_HALF_2X16_RTZ_SPLIT -> Eval.binary(NirFns::packHalf2x16RtzSplit);
            case PACK_32_4X8_SPLIT -> Eval.quaternary(NirFns::pack32x4x8Split);
            // the 16-bit conversion (MediumPrecision), of a source fixed at 32 bits
            case F2FMP, I2IMP, F2IMP, F2UMP, I2FMP, U2FMP -> {
                Eval.PerComponent narrow = (Eval.PerComponent) of(MediumPrecision.narrow(op));
                yield Eval.unary((a, n) -> narrow.fn().apply(a, 0, 0, 0, 32));
            }
            case IMADSH_MIX16 -> Eval.ternary(NirFns::imadshMix16);
            case MSAD_4X8 -> Eval.ternary(NirFns::msad4x8);
            case SHFR -> Eval.ternary(NirFns::shfr);
            case F2F16 -> Eval.unary(ConvertFns.f2f(16));
            case F2F16_RTNE -> Eval.unary(ConvertFns.f2f(16));
            case F2F16_RTZ -> Eval.unary(ConvertFns::f2f16Rtz);
            case F2F32 -> Eval.unary(ConvertFns.f2f(32));
            case F2F64 -> Eval.unary(ConvertFns.f2f(64));
            case F2I8 -> Eval.unary(ConvertFns.f2i(8));
            case F2I16 -> Eval.unary(ConvertFns.f2i(16));
            case F2I32 -> Eval.unary(ConvertFns.f2i(32));
            case F2I64 -> Eval.unary(ConvertFns.f2i(64));
            case F2U8 -> Eval.unary(ConvertFns.f2u(8));
            case F2U16 -> Eval.unary(ConvertFns.f2u(16));
            case F2U32 -> Eval.unary(ConvertFns.f2u(32));
            case F2U64 -> Eval.unary(ConvertFns.f2u(64));
            case I2F16 -> Eval.unary(ConvertFns.i2f(16));
            case I2F32 -> Eval.unary(ConvertFns.i2f(32));
            case I2F64 -> Eval.unary(ConvertFns.i2f(64));
            case U2F16 -> Eval.unary(ConvertFns.u2f(16));
            case U2F32 -> Eval.unary(ConvertFns.u2f(32));
            case U2F64 -> Eval.unary(ConvertFns.u2f(64));
            case I2I1, U2U1 -> Eval.unary((a, n) -> a & 1);
            case I2I8 -> Eval.unary(ConvertFns::i2i);
            case I2I16 -> Eval.unary(ConvertFns::i2i);
            case I2I32 -> Eval.unary(ConvertFns::i2i);
            case I2I64 -> Eval.unary(ConvertFns::i2i);
            case U2U8 -> Eval.unary(ConvertFns::u2u);
            case U2U16 -> Eval.unary(ConvertFns::u2u);
            case U2U32 -> Eval.unary(ConvertFns::u2u);
            case U2U64 -> Eval.unary(ConvertFns::u2u);
            case B2F16 -> Eval.unary(ConvertFns.b2f(16));
            case B2F32 -> Eval.unary(ConvertFns.b2f(32));
            case B2F64 -> Eval.unary(ConvertFns.b2f(64));
            case B2I8 -> Eval.unary(ConvertFns::b2i);
            case B2I16 -> Eval.unary(ConvertFns::b2i);
            case B2I32 -> Eval.unary(ConvertFns::b2i);
            case B2I64 -> Eval.unary(ConvertFns::b2i);
            case F2B1 -> Eval.unary(ConvertFns::f2b);
            case I2B1 -> Eval.unary(ConvertFns::i2b);
            case PACK_64_2X32_SPLIT -> Eval.binary(PackFns.packSplit(32));
            case PACK_64_2X32_SPLIT_X -> Eval.binary(PackFns::pack64SplitX);
            case PACK_64_2X32_SPLIT_Y -> Eval.binary(PackFns::pack64SplitY);
            case UNPACK_64_2X32_SPLIT_X -> Eval.unary(PackFns.unpackSplit(32, false));
            case UNPACK_64_2X32_SPLIT_Y -> Eval.unary(PackFns.unpackSplit(32, true));
            case PACK_64_2X32 -> Eval.horizontal(PackFns.pack(32));
            case UNPACK_64_2X32 -> Eval.horizontal(PackFns.unpack(32));
            case PACK_64_4X16 -> Eval.horizontal(PackFns.pack(16));
            case UNPACK_64_4X16 -> Eval.horizontal(PackFns.unpack(16));
            case PACK_32_2X16 -> Eval.horizontal(PackFns.pack(16));
            case UNPACK_32_2X16 -> Eval.horizontal(PackFns.unpack(16));
            case PACK_32_2X16_SPLIT -> Eval.binary(PackFns.packSplit(16));
            case UNPACK_32_2X16_SPLIT_X -> Eval.unary(PackFns.unpackSplit(16, false));
            case UNPACK_32_2X16_SPLIT_Y -> Eval.unary(PackFns.unpackSplit(16, true));
            case PACK_32_4X8 -> Eval.horizontal(PackFns.pack(8));
            case UNPACK_32_4X8 -> Eval.horizontal(PackFns.unpack(8));
            case PACK_HALF_2X16 -> Eval.horizontal(PackFns::packHalf2x16);
            case UNPACK_HALF_2X16 -> Eval.horizontal(PackFns::unpackHalf2x16);
            case PACK_HALF_2X16_SPLIT -> Eval.binary(PackFns::packHalf2x16Split);
            case UNPACK_HALF_2X16_SPLIT_X -> Eval.unary(PackFns.unpackHalf2x16Split(false));
            case UNPACK_HALF_2X16_SPLIT_Y -> Eval.unary(PackFns.unpackHalf2x16Split(true));
            case PACK_UNORM_4X8 -> Eval.horizontal(PackFns.packUnorm(8));
            case UNPACK_UNORM_4X8 -> Eval.horizontal(PackFns.unpackUnorm(8));
            case PACK_SNORM_4X8 -> Eval.horizontal(PackFns.packSnorm(8));
            case UNPACK_SNORM_4X8 -> Eval.horizontal(PackFns.unpackSnorm(8));
            case PACK_UNORM_2X16 -> Eval.horizontal(PackFns.packUnorm(16));
            case UNPACK_UNORM_2X16 -> Eval.horizontal(PackFns.unpackUnorm(16));
            case PACK_SNORM_2X16 -> Eval.horizontal(PackFns.packSnorm(16));
            case UNPACK_SNORM_2X16 -> Eval.horizontal(PackFns.unpackSnorm(16));
            case PACK_UINT_2X16 -> Eval.horizontal(PackFns::packUint2x16);
            case PACK_UVEC2_TO_UINT -> Eval.horizontal(PackFns::packUvec2ToUint);
            case PACK_UVEC4_TO_UINT -> Eval.horizontal(PackFns::packUvec4ToUint);
        };
    }
}
