#version 450
// Colour grading: saturation through luminance, contrast around grey, a 3x3 colour matrix.
layout(location = 0) in vec3 c;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform Grade { mat3 mix3; float saturation; float contrast; } g;

void main() {
    float lum = dot(c, vec3(0.2126, 0.7152, 0.0722));
    vec3 s = mix(vec3(lum), c, g.saturation);
    vec3 k = (s - 0.5) * g.contrast + 0.5;
    color = vec4(clamp(g.mix3 * k, 0.0, 1.0), 1.0);
}
