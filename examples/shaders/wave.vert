#version 450
// A grid displaced by two travelling sine waves; the normal from the analytic derivative.
layout(location = 0) in vec2 grid;
layout(location = 0) out vec3 normal;
layout(push_constant) uniform P { float time; float amplitude; } p;

void main() {
    float a = p.amplitude;
    float h = a * sin(grid.x * 3.0 + p.time) + a * 0.5 * cos(grid.y * 5.0 - p.time * 2.0);
    float dx = a * 3.0 * cos(grid.x * 3.0 + p.time);
    float dy = -a * 2.5 * sin(grid.y * 5.0 - p.time * 2.0);
    normal = normalize(vec3(-dx, -dy, 1.0));
    gl_Position = vec4(grid, h, 1.0);
}
