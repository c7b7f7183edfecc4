#version 450
// Image processing on packed RGBA8 pixels: unpack, invert and threshold, pack.
layout(local_size_x = 8, local_size_y = 2) in;
layout(std430, set = 0, binding = 0) buffer Pixels { uint px[]; } img;
layout(push_constant) uniform P { uint width; float threshold; } pc;

void main() {
    uint i = gl_GlobalInvocationID.y * pc.width + gl_GlobalInvocationID.x;
    vec4 c = unpackUnorm4x8(img.px[i]);
    vec3 inv = vec3(1.0) - c.rgb;
    float lum = dot(inv, vec3(0.299, 0.587, 0.114));
    img.px[i] = packUnorm4x8(vec4(lum > pc.threshold ? inv : vec3(0.0), c.a));
}
