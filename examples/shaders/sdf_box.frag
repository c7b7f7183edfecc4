#version 450
// Signed distance of a rounded box, shaded by its normal from central differences.
layout(location = 0) in vec3 q;
layout(location = 0) out vec4 color;

float box(vec3 p) {
    vec3 d = abs(p) - vec3(0.5, 0.3, 0.2);
    return length(max(d, vec3(0.0))) + min(max(d.x, max(d.y, d.z)), 0.0) - 0.05;
}

void main() {
    const float e = 0.001;
    vec3 n = normalize(vec3(box(q + vec3(e, 0, 0)) - box(q - vec3(e, 0, 0)),
                            box(q + vec3(0, e, 0)) - box(q - vec3(0, e, 0)),
                            box(q + vec3(0, 0, e)) - box(q - vec3(0, 0, e))));
    color = vec4(n * 0.5 + 0.5, box(q));
}
