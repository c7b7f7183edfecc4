#version 450
// Julia set with smooth colouring (log of the escape radius).
layout(location = 0) in vec2 z0;
layout(location = 0) out vec4 color;
layout(push_constant) uniform P { vec2 c; } p;

void main() {
    vec2 z = z0;
    int i;
    for (i = 0; i < 48; i++) {
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + p.c;
        if (dot(z, z) > 16.0) break;
    }
    float smoothed = float(i) - log2(max(log2(dot(z, z)), 1.0));
    color = vec4(vec3(smoothed / 48.0), 1.0);
}
