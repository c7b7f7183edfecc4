#version 450
// An array of light structs indexed in a loop, one of them chosen at run time for a highlight.
layout(location = 0) in vec3 position;
layout(location = 1) flat in int highlight;
layout(location = 0) out vec4 color;

struct Light { vec3 position; vec3 color; };

void main() {
    Light lights[3];
    lights[0] = Light(vec3(1.0, 2.0, 0.0), vec3(1.0, 0.0, 0.0));
    lights[1] = Light(vec3(-1.0, 2.0, 0.0), vec3(0.0, 1.0, 0.0));
    lights[2] = Light(vec3(0.0, 2.0, 1.0), vec3(0.0, 0.0, 1.0));
    lights[clamp(highlight, 0, 2)].color *= 2.0;
    vec3 sum = vec3(0.0);
    for (int i = 0; i < 3; i++) {
        float d = distance(lights[i].position, position);
        sum += lights[i].color / (1.0 + d * d);
    }
    color = vec4(sum, 1.0);
}
