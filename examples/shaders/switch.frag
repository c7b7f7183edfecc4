#version 450
// A switch on a flat integer input choosing a palette entry, with a default.
layout(location = 0) flat in int mode;
layout(location = 1) in float t;
layout(location = 0) out vec4 color;

void main() {
    vec3 c;
    switch (mode) {
        case 0: c = vec3(t, 0.0, 0.0); break;
        case 1: c = vec3(0.0, t, 0.0); break;
        case 2: c = vec3(0.0, 0.0, t); break;
        default: c = vec3(t); break;
    }
    color = vec4(c, 1.0);
}
