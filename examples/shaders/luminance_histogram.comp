#version 450
// A luminance histogram with atomics: each workgroup counts its pixels' luminance bins in
// shared memory (atomicAdd on shared), then adds its counts into the global bins. The pixel
// count comes from the buffer's size (pixels.length(), OpArrayLength); global statistics use
// atomicMin/Max (unsigned and signed), atomicOr/Xor/And, atomicExchange, and atomicCompSwap
// lets the first bright pixel claim a slot.
layout(local_size_x = 32) in;

layout(std430, binding = 0) readonly buffer Pixels { uint pixels[]; };
layout(std430, binding = 1) buffer Stats {
    uint bins[16];
    uint minLum;
    uint maxLum;
    int minDelta;
    int maxDelta;
    uint seen;
    uint parity;
    uint shared_bits;
    uint claimed;
    uint firstBright;
    uint last;
};

shared uint localBins[16];

void main() {
    uint lid = gl_LocalInvocationIndex;
    if (lid < 16u) localBins[lid] = 0u;
    barrier();

    uint gid = gl_GlobalInvocationID.x;
    if (gid < uint(pixels.length())) {
        uint p = pixels[gid];
        vec4 c = unpackUnorm4x8(p);
        float lum = dot(c.rgb, vec3(0.2126, 0.7152, 0.0722));
        uint l = min(uint(lum * 255.0 + 0.5), 255u);
        atomicAdd(localBins[l >> 4], 1u);
        atomicMin(minLum, l);
        atomicMax(maxLum, l);
        int delta = int(l) - int(c.a * 255.0);
        atomicMin(minDelta, delta);
        atomicMax(maxDelta, delta);
        atomicOr(seen, 1u << (l & 31u));
        atomicXor(parity, p);
        atomicAnd(shared_bits, p);
        atomicExchange(last, gid);
        if (l > 200u && atomicCompSwap(claimed, 0u, 1u) == 0u) firstBright = gid;
    }
    barrier();
    if (lid < 16u) atomicAdd(bins[lid], localBins[lid]);
}
