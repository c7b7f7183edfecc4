#version 450
// Workgroup prefix sums in shared memory (Hillis-Steele, double-buffered with barriers), a
// shared 2D tile read transposed, and a struct array in shared memory.
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer Data {
    uint values[];
};
layout(std430, set = 0, binding = 1) buffer Out {
    uint sums[32];
    float transposed[32];
};

struct Pair {
    uint key;
    float weight;
};
shared uint scan[2][16];
shared float tile[4][4];
shared Pair pairs[16];

void main() {
    uint i = gl_LocalInvocationID.x;
    uint g = gl_GlobalInvocationID.x;
    scan[0][i] = values[g];
    tile[i / 4u][i % 4u] = float(values[g] & 255u) * 0.5;
    pairs[i] = Pair(values[g] >> 8, float(i));
    barrier();
    uint src = 0u;
    for (uint offset = 1u; offset < 16u; offset <<= 1u) {
        uint v = scan[src][i];
        if (i >= offset) v += scan[src][i - offset];
        scan[1u - src][i] = v;
        src = 1u - src;
        barrier();
    }
    sums[g & 31u] = scan[src][i];
    Pair other = pairs[15u - i];
    transposed[g & 31u] = tile[i % 4u][i / 4u] + other.weight * float(other.key & 1u);
}
