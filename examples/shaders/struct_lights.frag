#version 450
// Structs in local variables: two point lights built, passed to a function and summed.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec4 color;

struct Light { vec3 position; vec3 color; float range; };

vec3 shade(Light l, vec3 p, vec3 n) {
    vec3 d = l.position - p;
    float dist = length(d);
    float falloff = clamp(1.0 - dist / l.range, 0.0, 1.0);
    return l.color * max(dot(normalize(n), d / max(dist, 1e-4)), 0.0) * falloff;
}

void main() {
    Light key;
    key.position = vec3(2.0, 4.0, 1.0);
    key.color = vec3(1.0, 0.9, 0.8);
    key.range = 10.0;
    Light fill = Light(vec3(-3.0, 1.0, 2.0), vec3(0.2, 0.3, 0.5), 6.0);
    if (position.y < 0.0) fill.color *= 0.5;
    color = vec4(shade(key, position, normal) + shade(fill, position, normal), 1.0);
}
