#version 450
// Layered rendering: each of the two invocations of a triangle sends a copy to its own layer,
// moved right by its invocation id.
layout(triangles, invocations = 2) in;
layout(triangle_strip, max_vertices = 3) out;

layout(location = 0) in vec2 inUV[];
layout(location = 0) out vec2 outUV;

void main() {
    for (int i = 0; i < 3; i++) {
        gl_Layer = gl_InvocationID;
        gl_Position = gl_in[i].gl_Position + vec4(float(gl_InvocationID), 0.0, 0.0, 0.0);
        outUV = inUV[i];
        EmitVertex();
    }
    EndPrimitive();
}
