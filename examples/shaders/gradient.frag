#version 450
// A three-stop colour gradient with branches on the parameter.
layout(location = 0) in float t;
layout(location = 0) out vec4 color;

void main() {
    vec3 a = vec3(0.1, 0.2, 0.8), b = vec3(0.9, 0.9, 0.2), c = vec3(0.8, 0.1, 0.1);
    vec3 rgb;
    if (t < 0.5) {
        rgb = mix(a, b, t * 2.0);
    } else if (t < 1.0) {
        rgb = mix(b, c, t * 2.0 - 1.0);
    } else {
        rgb = c;
    }
    color = vec4(rgb, 1.0);
}
