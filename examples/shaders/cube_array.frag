#version 450
// An array of environment cube maps: the sky picks its cube by index and blurs by level,
// a reflection samples another cube along the reflected direction; the size is shown too.
layout(binding = 0) uniform samplerCubeArray environments;
layout(binding = 1) uniform Scene { int sky; int probe; float lod_bias; } scene;
layout(location = 0) in vec3 world_normal;
layout(location = 1) in vec3 view_dir;
layout(location = 0) out vec4 color;

void main() {
    vec3 r = reflect(normalize(view_dir), normalize(world_normal));
    vec4 sky = textureLod(environments, vec4(view_dir, scene.sky), scene.lod_bias);
    vec4 refl = texture(environments, vec4(r, float(scene.probe)));
    ivec3 size = textureSize(environments, 0);
    color = mix(sky, refl, 0.5) + vec4(0.0, 0.0, 0.0, float(size.z) * 0.001);
}
