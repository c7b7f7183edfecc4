#version 450
// Instanced drawing: a per-instance model matrix and colour table as vertex inputs.
layout(location = 0) in vec3 position;
layout(location = 1) in mat4 model;          // locations 1 to 4
layout(location = 5) in vec4 palette[2];     // locations 5 and 6
layout(location = 0) out vec4 tint;
layout(set = 0, binding = 0) uniform Camera { mat4 view_proj; } cam;

void main() {
    tint = palette[gl_InstanceIndex & 1];
    gl_Position = cam.view_proj * (model * vec4(position, 1.0));
}
