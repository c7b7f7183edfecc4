package dev.lathe.spirv;

/**
 * The GLSL.std.450 extended instructions the frontend translates, by the names the extended
 * instruction set's grammar gives them ({@code FMix}, not 46), spelled as the grammar spells them
 * so that each can be searched for in its specification. {@code SpirvOpsTest} checks every one
 * against Khronos's grammar ({@code grammar-names.tsv}).
 */
final class Glsl450Ops {
    private Glsl450Ops() {}

    static final int Round = 1;
    static final int RoundEven = 2;
    static final int Trunc = 3;
    static final int FAbs = 4;
    static final int SAbs = 5;
    static final int FSign = 6;
    static final int SSign = 7;
    static final int Floor = 8;
    static final int Ceil = 9;
    static final int Fract = 10;
    static final int Radians = 11;
    static final int Degrees = 12;
    static final int Sin = 13;
    static final int Cos = 14;
    static final int Tan = 15;
    static final int Asin = 16;
    static final int Acos = 17;
    static final int Atan = 18;
    static final int Sinh = 19;
    static final int Cosh = 20;
    static final int Tanh = 21;
    static final int Asinh = 22;
    static final int Acosh = 23;
    static final int Atanh = 24;
    static final int Atan2 = 25;
    static final int Pow = 26;
    static final int Exp = 27;
    static final int Log = 28;
    static final int Exp2 = 29;
    static final int Log2 = 30;
    static final int Sqrt = 31;
    static final int InverseSqrt = 32;
    static final int Determinant = 33;
    static final int MatrixInverse = 34;
    static final int Modf = 35;
    static final int ModfStruct = 36;
    static final int FMin = 37;
    static final int UMin = 38;
    static final int SMin = 39;
    static final int FMax = 40;
    static final int UMax = 41;
    static final int SMax = 42;
    static final int FClamp = 43;
    static final int UClamp = 44;
    static final int SClamp = 45;
    static final int FMix = 46;
    static final int IMix = 47;
    static final int Step = 48;
    static final int SmoothStep = 49;
    static final int Fma = 50;
    static final int Frexp = 51;
    static final int FrexpStruct = 52;
    static final int Ldexp = 53;
    static final int PackSnorm4x8 = 54;
    static final int PackUnorm4x8 = 55;
    static final int PackSnorm2x16 = 56;
    static final int PackUnorm2x16 = 57;
    static final int PackHalf2x16 = 58;
    static final int PackDouble2x32 = 59;
    static final int UnpackSnorm2x16 = 60;
    static final int UnpackUnorm2x16 = 61;
    static final int UnpackHalf2x16 = 62;
    static final int UnpackSnorm4x8 = 63;
    static final int UnpackUnorm4x8 = 64;
    static final int UnpackDouble2x32 = 65;
    static final int Length = 66;
    static final int Distance = 67;
    static final int Cross = 68;
    static final int Normalize = 69;
    static final int FaceForward = 70;
    static final int Reflect = 71;
    static final int Refract = 72;
    static final int FindILsb = 73;
    static final int FindSMsb = 74;
    static final int FindUMsb = 75;
    static final int NMin = 79;
    static final int NMax = 80;
    static final int NClamp = 81;
}
