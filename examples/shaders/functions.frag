#version 450
// Helper functions with in and out parameters (inlined by the frontend).
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 color;

void polar(vec2 q, out float radius, out float angle) {
    radius = length(q);
    angle = q.y >= 0.0 ? q.x : -q.x;
}

float ring(float r) {
    return fract(r * 4.0);
}

void main() {
    float r, a;
    polar(p, r, a);
    color = vec4(ring(r), a, r, 1.0);
}
