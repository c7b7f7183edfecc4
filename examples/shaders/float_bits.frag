#version 450
// Floating-point decomposition: frexp and ldexp rebuild a value from its significand and
// exponent, modf splits whole and fraction (both forms), read from an input block.
layout(location = 0) in Varyings {
    vec4 value;
    flat ivec2 shift;
} vin;
layout(location = 0) out vec4 parts;
layout(location = 1) out ivec4 exponents;
layout(location = 2) out vec4 rebuilt;

void main() {
    ivec4 e;
    vec4 sig = frexp(vin.value, e);
    exponents = e;
    rebuilt = ldexp(sig, e + ivec4(vin.shift, -vin.shift));
    vec4 whole;
    vec4 fraction = modf(vin.value * 3.5, whole);
    parts = fraction + whole * 0.25 + sig * 0.125;
    float w;
    parts.w += modf(vin.value.x, w) + w;
}
