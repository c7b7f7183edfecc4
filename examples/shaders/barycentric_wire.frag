#version 450
#extension GL_EXT_fragment_shader_barycentric : require
// A wireframe from barycentric coordinates: near any edge of the triangle the fragment takes
// the wire colour; elsewhere it shades with the interpolated normal.
layout(location = 0) in vec3 normal;
layout(location = 0) out vec4 color;
layout(push_constant) uniform Style { vec4 wire; float width; } style;

void main() {
    vec3 b = gl_BaryCoordEXT;
    float edge = min(b.x, min(b.y, b.z));
    float shade = max(dot(normalize(normal), vec3(0.0, 0.0, 1.0)), 0.1);
    if (b.x < style.width || b.y < style.width || b.z < style.width) {
        color = style.wire;
    } else {
        color = vec4(vec3(shade), 1.0) * smoothstep(style.width, 2.0 * style.width, edge);
    }
}
