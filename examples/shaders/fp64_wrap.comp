#version 450
// Double-precision coordinate wrapping: floor, fract, ceil, trunc, round, mod, frexp and ldexp
// on doubles (lower_doubles masks the fraction bits in the half that holds them).
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer Coords { double c[]; } coords;
layout(std430, set = 0, binding = 1) buffer Out { double o[]; } res;

void main() {
    uint i = gl_LocalInvocationIndex;
    double x = coords.c[i];
    double period = coords.c[i + 4u];
    double cell = floor(x / period);
    double inside = fract(x / period);
    double wrapped = mod(x, period);
    int e;
    double m = frexp(x, e);
    double back = ldexp(m, e + 1);
    res.o[8u * i + 0u] = cell;
    res.o[8u * i + 1u] = inside;
    res.o[8u * i + 2u] = wrapped;
    res.o[8u * i + 3u] = ceil(x) - trunc(x);
    res.o[8u * i + 4u] = roundEven(x * 0.5lf) + round(period);
    res.o[8u * i + 5u] = m;
    res.o[8u * i + 6u] = double(e);
    res.o[8u * i + 7u] = back;
}
