#version 450
// Exponential-squared fog blended over a lit colour.
layout(location = 0) in vec3 lit;
layout(location = 1) in float depth;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform Fog { vec3 tint; float density; } fog;

void main() {
    float f = exp(-pow(fog.density * depth, 2.0));
    color = vec4(mix(fog.tint, lit, clamp(f, 0.0, 1.0)), 1.0);
}
