#version 450
// Linear blend skinning with four bone matrices chosen per vertex (dynamic uniform array indexing).
layout(location = 0) in vec4 position;
layout(location = 1) in uvec4 bones;
layout(location = 2) in vec4 weights;
layout(location = 0) out vec4 world;
layout(set = 0, binding = 0) uniform Skeleton { mat4 bone[8]; } sk;

void main() {
    mat4 m = sk.bone[bones.x & 7u] * weights.x + sk.bone[bones.y & 7u] * weights.y
           + sk.bone[bones.z & 7u] * weights.z + sk.bone[bones.w & 7u] * weights.w;
    world = m * position;
    gl_Position = world;
}
