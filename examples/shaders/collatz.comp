#version 450
// Collatz steps for each buffer value, capped at 200 iterations (a data-dependent loop).
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Data { uint v[]; } d;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = max(d.v[i] & 0xffffu, 1u);
    uint steps = 0u;
    while (n != 1u && steps < 200u) {
        n = (n & 1u) == 0u ? n / 2u : 3u * n + 1u;
        steps++;
    }
    d.v[i] = steps;
}
