#version 450
// Double math from words: packDouble2x32 / unpackDouble2x32, fp64 multiply-add and compare.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Data { uint w[]; } d;

void main() {
    double a = packDouble2x32(uvec2(d.w[0], d.w[1]));
    double b = packDouble2x32(uvec2(d.w[2], d.w[3]));
    double c = a * b + a;
    double m = max(c, b);
    uvec2 r = unpackDouble2x32(m);
    d.w[4] = r.x;
    d.w[5] = r.y;
    d.w[6] = c > b ? 1u : 0u;
}
