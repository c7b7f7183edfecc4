#version 450
// Uniform blocks as applications use them: a per-frame camera block (view and projection),
// a per-object block (model matrix, normal matrix, tint), and the matrix products a vertex
// shader typically writes — projection * view * model depends on uniforms only (ir3 computes
// it once per draw in its preamble).
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 0) out vec3 worldNormal;
layout(location = 1) out vec2 texCoord;
layout(location = 2) out vec4 tint;
layout(location = 3) out float viewDepth;

layout(set = 0, binding = 0) uniform Camera {
    mat4 view;
    mat4 projection;
    vec4 cameraPos;
} camera;

layout(set = 1, binding = 0) uniform Object {
    mat4 model;
    mat4 normalMatrix;
    vec4 color;
    float uvScale;
} object;

void main() {
    vec4 world = object.model * vec4(position, 1.0);
    vec4 viewPos = camera.view * world;
    gl_Position = camera.projection * camera.view * object.model * vec4(position, 1.0);
    worldNormal = normalize(mat3(object.normalMatrix) * normal);
    texCoord = uv * object.uvScale;
    tint = object.color * (1.0 / max(object.color.a, 0.001));
    viewDepth = -viewPos.z / max(length(camera.cameraPos.xyz - world.xyz), 1e-3);
}
