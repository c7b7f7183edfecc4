#version 450
#extension GL_EXT_debug_printf : enable
// debugPrintfEXT is for a debugging layer; a compiler ignores it (NonSemantic.DebugPrintf).
layout(location = 0) in vec4 position;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec3 shade;
layout(binding = 0) uniform Camera { mat4 mvp; vec3 light; } camera;

void main() {
    vec4 p = camera.mvp * position;
    debugPrintfEXT("position = %v4f, w = %f", p, p.w);
    shade = vec3(max(dot(normal, camera.light), 0.0));
    gl_Position = p;
}
