#version 450
// Arrays of uniform blocks: one block per cascade, picked by a constant and by an index the
// vertex carries; and an array of storage blocks written at a constant element.
layout(location = 0) in vec4 position;
layout(location = 1) in int cascade;
layout(location = 0) out vec4 shadow_coord;
layout(location = 1) out float fade;

layout(binding = 0) uniform Cascade {
    mat4 view_projection;
    vec4 split;
} cascades[3];

layout(std430, binding = 1) buffer Counters {
    uint seen;
    float last_depth;
} counters[2];

void main() {
    int c = clamp(cascade, 0, 2);
    shadow_coord = cascades[c].view_projection * position;
    fade = clamp((cascades[2].split.x - position.z) / cascades[0].split.y, 0.0, 1.0);
    counters[1].last_depth = shadow_coord.z;
    gl_Position = cascades[0].view_projection * position;
}
