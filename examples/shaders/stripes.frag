#version 450
// Repeating stripes and rings with GLSL mod() (a - b * floor(a / b)), including negative coordinates.
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 color;

void main() {
    float stripe = step(0.5, mod(p.x * 4.0, 1.0));
    float ring = mod(length(p) * 3.0, 1.0);
    vec2 cell = mod(p, vec2(0.75, -0.5));
    color = vec4(stripe, ring, cell);
}
