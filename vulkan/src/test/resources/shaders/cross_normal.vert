#version 450
// A face normal from two edges with GLSL.std.450 Cross, which no bundled shader uses: the
// oracle's test that a wrong translation of cross is caught. Rebuild: glslangValidator -V cross_normal.vert -o cross_normal.vert.spv
layout(location = 0) in vec3 edge0;
layout(location = 1) in vec3 edge1;
layout(location = 0) out vec3 normal;
layout(location = 1) out vec3 unnormalized;

void main() {
    unnormalized = cross(edge0, edge1);
    normal = normalize(unnormalized);
    gl_Position = vec4(edge0, 1.0);
}
