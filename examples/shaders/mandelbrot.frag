#version 450
// Escape-time Mandelbrot: iterate z = z^2 + c until |z| > 2 (a loop with break).
layout(location = 0) in vec2 c;
layout(location = 0) out vec4 color;

void main() {
    vec2 z = vec2(0.0);
    int n = 0;
    for (; n < 64; n++) {
        if (dot(z, z) > 4.0) break;
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
    }
    float t = float(n) / 64.0;
    color = vec4(t, t * t, sqrt(t), 1.0);
}
