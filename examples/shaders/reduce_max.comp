#version 450
// Each invocation scans a strip of the buffer for its maximum and minimum (loops over a buffer).
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer Data { float v[]; } d;
layout(std430, set = 0, binding = 1) buffer Out { vec2 range[]; } o;

void main() {
    uint s = gl_LocalInvocationIndex * 8u;
    float hi = d.v[s], lo = d.v[s];
    for (uint k = 1u; k < 8u; k++) {
        hi = max(hi, d.v[s + k]);
        lo = min(lo, d.v[s + k]);
    }
    o.range[gl_LocalInvocationIndex] = vec2(lo, hi);
}
