#version 450
// Integer bit tricks over a buffer: findMSB, findLSB, bitCount, bitfieldExtract, shifts.
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer Data { uint v[]; } data;

void main() {
    uint i = gl_LocalInvocationIndex;
    uint x = data.v[i];
    uint msb = uint(findMSB(x));
    uint lsb = uint(findLSB(x));
    uint count = uint(bitCount(x));
    uint mid = bitfieldExtract(x, 4, 8);
    data.v[i] = (msb << 24) ^ (lsb << 16) ^ (count << 8) ^ mid ^ (x >> 3);
}
