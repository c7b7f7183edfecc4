#version 450
// A switch whose cases fall through into the next one (the frontend translates the next case again).
layout(location = 0) flat in int mode;
layout(location = 1) in float t;
layout(location = 0) out vec4 color;
void main() {
    float r = 0.0;
    switch (mode & 7) {
        case 0: r += 1.0;
        case 1: r += 2.0; break;
        case 2:
        case 3: r = t; break;
        case 4: r = -t;
        default: r *= 3.0;
    }
    color = vec4(r);
}
