#version 450
#extension GL_ARB_gpu_shader_int64 : require
// FNV-1a over buffer bytes in 64-bit integers, stored as two words.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Data { uint words[]; } d;

void main() {
    uint64_t h = 0xcbf29ce484222325ul;
    for (uint i = 0u; i < 4u; i++) {
        uint w = d.words[i];
        for (uint k = 0u; k < 4u; k++) {
            h ^= uint64_t((w >> (8u * k)) & 0xffu);
            h *= 0x100000001b3ul;
        }
    }
    d.words[4] = uint(h);
    d.words[5] = uint(h >> 32);
}
