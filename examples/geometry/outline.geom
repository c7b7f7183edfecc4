#version 450
// A triangle's outline: its three vertices and the first again, as one line strip, each with
// its colour; gl_PrimitiveIDIn tints the closing vertex.
layout(triangles) in;
layout(line_strip, max_vertices = 4) out;

layout(location = 0) in vec3 inColor[];
layout(location = 0) out vec3 outColor;

void main() {
    for (int i = 0; i < gl_in.length(); i++) {
        gl_Position = gl_in[i].gl_Position;
        outColor = inColor[i];
        EmitVertex();
    }
    gl_Position = gl_in[0].gl_Position;
    outColor = inColor[0] + vec3(0.0, 0.0, float(gl_PrimitiveIDIn));
    EmitVertex();
    EndPrimitive();
}
