#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Descriptor indexing: a run-time sized array of textures picked per fragment by an index the
// vertex passes (nonuniformEXT), and a run-time sized array of material buffers.
layout(set = 0, binding = 0) uniform sampler2D textures[];
layout(std430, set = 0, binding = 1) readonly buffer Material { vec4 tint; float gloss; } materials[];
layout(location = 0) in vec2 uv;
layout(location = 1) flat in int texture_index;
layout(location = 2) flat in int material_index;
layout(location = 0) out vec4 color;

void main() {
    vec4 albedo = texture(textures[nonuniformEXT(texture_index)], uv);
    vec4 tint = materials[nonuniformEXT(material_index)].tint;
    color = albedo * tint + vec4(materials[0].gloss);
}
