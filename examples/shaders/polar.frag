#version 450
// Polar coordinates with atan and an angular pattern; asin/acos of a clamped cosine.
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 color;

void main() {
    float angle = atan(p.y, p.x);
    float r = length(p);
    float spokes = 0.5 + 0.5 * cos(angle * 6.0);
    float tilt = asin(clamp(p.y, -1.0, 1.0)) + acos(clamp(p.x, -1.0, 1.0)) + atan(r);
    color = vec4(spokes, r, tilt, 1.0);
}
