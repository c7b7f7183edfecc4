#version 450
// Inclusive prefix sum of 64 values per workgroup (Hillis-Steele in shared memory).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { uint values[]; } data;
shared uint scratch[64];

void main() {
    uint i = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 64u;
    scratch[i] = data.values[base + i];
    barrier();
    for (uint offset = 1u; offset < 64u; offset *= 2u) {
        uint add = i >= offset ? scratch[i - offset] : 0u;
        barrier();
        scratch[i] += add;
        barrier();
    }
    data.values[base + i] = scratch[i];
}
