#version 450
#extension GL_EXT_multiview : enable
// Multiview: one draw renders both eyes; gl_ViewIndex picks each eye's matrices.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec3 view_normal;
layout(location = 1) out float eye;

layout(binding = 0) uniform Eyes {
    mat4 projection[2];
    mat4 modelview[2];
} eyes;

void main() {
    int v = int(gl_ViewIndex);
    view_normal = mat3(eyes.modelview[v]) * normal;
    eye = float(v);
    gl_Position = eyes.projection[v] * eyes.modelview[v] * vec4(position, 1.0);
}
