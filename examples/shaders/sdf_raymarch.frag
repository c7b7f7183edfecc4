#version 450
// Sphere tracing a scene of a sphere and a plane: a loop that breaks on a hit or a miss.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

float scene(vec3 q) {
    float sphere = length(q - vec3(0.0, 1.0, 5.0)) - 1.0;
    float plane = q.y;
    return min(sphere, plane);
}

void main() {
    vec3 ro = vec3(0.0, 1.0, 0.0);
    vec3 rd = normalize(vec3(uv, 1.0));
    float t = 0.0;
    bool hit = false;
    for (int i = 0; i < 64; i++) {
        float d = scene(ro + rd * t);
        if (d < 0.001) { hit = true; break; }
        t += d;
        if (t > 50.0) break;
    }
    float shade = hit ? 1.0 / (1.0 + t * t * 0.01) : 0.0;
    color = vec4(shade, shade, shade, 1.0);
}
