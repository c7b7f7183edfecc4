#version 450
// Model-view-projection transform of a position, passing a colour through.
layout(location = 0) in vec4 position;
layout(location = 1) in vec3 color_in;
layout(location = 0) out vec3 color_out;
layout(set = 0, binding = 0) uniform Matrices { mat4 mvp; } m;

void main() {
    gl_Position = m.mvp * position;
    color_out = color_in;
}
