#version 450
// Instanced vertex lighting: a uniform array of light structs, inverse-transpose normals,
// a blend of two model matrices, functions returning a struct and a matrix, and an output
// block with a nested struct and an array.
struct Light {
    vec4 position;   // w = 0: directional
    vec4 color;      // a = intensity
};
struct Instance {
    mat4 model;
    mat4 previous;
    vec4 tint;
};
layout(set = 0, binding = 0) uniform Scene {
    mat4 viewProjection;
    Light lights[3];
    Instance instances[4];
    float blend;
} scene;

layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;

struct Shading {
    vec3 diffuse;
    float weight;
};
layout(location = 0) out VertexOut {
    Shading shading;
    vec2 depths[2];
    flat int lightCount;
} vout;

mat3 normalMatrix(mat4 m) {
    return transpose(inverse(mat3(m)));
}

Shading shade(vec3 p, vec3 n, vec4 tint) {
    Shading s;
    s.diffuse = vec3(0.0);
    s.weight = 0.0;
    for (int i = 0; i < 3; i++) {
        Light l = scene.lights[i];
        vec3 dir = l.position.w == 0.0 ? normalize(l.position.xyz) : normalize(l.position.xyz - p);
        float ndl = max(dot(n, dir), 0.0);
        s.diffuse += l.color.rgb * l.color.a * ndl;
        s.weight += ndl;
    }
    s.diffuse *= tint.rgb;
    return s;
}

void main() {
    Instance inst = scene.instances[gl_InstanceIndex & 3];
    mat4 model = inst.model * (1.0 - scene.blend) + inst.previous * scene.blend;
    vec4 world = model * vec4(position, 1.0);
    vec3 n = normalize(normalMatrix(model) * normal);
    vout.shading = shade(world.xyz, n, inst.tint);
    vec4 clip = scene.viewProjection * world;
    vec4 before = scene.viewProjection * (inst.previous * vec4(position, 1.0));
    vout.depths[0] = clip.zw;
    vout.depths[1] = before.zw;
    vout.lightCount = 3;
    gl_Position = clip;
}
