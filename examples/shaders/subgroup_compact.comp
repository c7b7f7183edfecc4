#version 450
// Stream compaction with subgroup operations: each subgroup counts its surviving elements with
// a ballot, one elected invocation reserves room with a single atomicAdd, and each survivor
// writes at the reservation plus its exclusive bit count. Also subgroup arithmetic (sum, scan,
// min, max), votes and broadcasts. Lathe's target runs subgroups of one invocation (a size
// Vulkan allows), so each operation has its one-invocation meaning.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 16) in;

layout(std430, binding = 0) readonly buffer Input { float values[]; };
layout(std430, binding = 1) buffer Output {
    uint count;
    uint subgroups;
    float total;
    float lowest;
    float highest;
    uint flags;
    float kept[];
};

void main() {
    uint gid = gl_GlobalInvocationID.x;
    float x = gid < uint(values.length()) ? values[gid] : -1.0;
    bool keep = x > 0.25;

    uvec4 ballot = subgroupBallot(keep);
    uint n = subgroupBallotBitCount(ballot);
    uint before = subgroupBallotExclusiveBitCount(ballot);
    uint base = 0u;
    if (subgroupElect()) base = atomicAdd(count, n);
    base = subgroupBroadcastFirst(base);
    if (keep) kept[base + before] = x;

    float sum = subgroupAdd(keep ? x : 0.0);
    float prefix = subgroupExclusiveAdd(x);
    if (subgroupElect()) {
        atomicAdd(subgroups, 1u);
        total += sum + prefix;
        lowest = min(lowest, subgroupMin(x));
        highest = max(highest, subgroupMax(x));
    }
    uint f = 0u;
    if (subgroupAll(keep)) f |= 1u;
    if (subgroupAny(keep)) f |= 2u;
    if (subgroupAllEqual(x)) f |= 4u;
    if (subgroupBallotBitExtract(gl_SubgroupEqMask, gl_SubgroupInvocationID)) f |= 8u;
    f |= uint(gl_SubgroupSize == subgroupShuffle(gl_SubgroupSize, 0u)) << 4;
    f |= (gl_NumSubgroups > gl_SubgroupID ? 1u : 0u) << 5;
    atomicOr(flags, f);
}
