#version 450
// Integer image processing: per-pixel byte extraction, saturation and shifts, written back.
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer Data { uint v[]; } d;

void main() {
    uint i = gl_LocalInvocationIndex;
    uint x = d.v[i];
    uint r = x & 0xffu, g = (x >> 8) & 0xffu, b = (x >> 16) & 0xffu;
    uint gray = (r * 77u + g * 150u + b * 29u) >> 8;
    uint bucket = gray >> 5;
    d.v[i] = (min(gray * 2u, 255u) << 24) | (bucket << 16) | bitfieldReverse(x & 0xffffu) >> 16;
}
