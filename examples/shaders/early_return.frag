#version 450
// Functions that return early, from an if and from inside a loop.
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 color;

float classify(float x) {
    if (x < 0.0) return -1.0;
    if (x > 1.0) return 2.0;
    return x * x;
}

int firstAbove(vec4 v, float limit) {
    for (int i = 0; i < 4; i++) {
        if (v[i] > limit) return i;
    }
    return -1;
}

void main() {
    float a = classify(p.x);
    int i = firstAbove(vec4(p, p.yx * 2.0), 0.5);
    color = vec4(a, float(i), classify(p.y), 1.0);
}
