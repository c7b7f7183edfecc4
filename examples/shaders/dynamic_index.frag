#version 450
// Dynamic indexing into a local array and a uniform array.
layout(location = 0) flat in int index;
layout(location = 1) in float t;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform Palette { vec4 entries[4]; } pal;

void main() {
    float ramp[6] = float[](0.0, 0.2, 0.4, 0.6, 0.8, 1.0);
    int i = clamp(index, 0, 5);
    vec4 c = pal.entries[index & 3];
    color = c * ramp[i] + vec4(t);
}
