#version 450
// Inclusive prefix sum over a buffer: each invocation adds up the values before it and its own
// (a loop whose length depends on the invocation; no shared memory).
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint values[]; } src;
layout(std430, set = 0, binding = 1) buffer Out { uint sums[]; } dst;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint total = 0u;
    for (uint k = 0u; k <= i; k++) total += src.values[k];
    dst.sums[i] = total;
}
