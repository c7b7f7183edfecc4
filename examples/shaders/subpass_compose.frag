#version 450
// Deferred composition inside one render pass: the G-buffer written by the previous subpass
// is read back as input attachments at this fragment's pixel.
layout(input_attachment_index = 0, binding = 0) uniform subpassInput albedo;
layout(input_attachment_index = 1, binding = 1) uniform subpassInput normal_depth;
layout(input_attachment_index = 2, binding = 2) uniform isubpassInput material;
layout(binding = 3) uniform Lighting { vec4 light_dir; int show; } lighting;
layout(location = 0) out vec4 color;

void main() {
    vec4 base = subpassLoad(albedo);
    vec4 nd = subpassLoad(normal_depth);
    int id = subpassLoad(material).r;
    if (lighting.show == 1) {
        color = vec4(nd.www, 1.0);
        return;
    }
    float diffuse = max(dot(normalize(nd.xyz), -lighting.light_dir.xyz), 0.0);
    float gloss = id == 2 ? 0.5 : 0.0;
    color = vec4(base.rgb * diffuse + gloss, base.a);
}
