#version 450
// Half-float and unorm 16-bit packing round trips, and the difference they make.
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 color;
layout(location = 1) out uvec2 packed_out;

void main() {
    uint h = packHalf2x16(v.xy);
    uint s = packUnorm2x16(v.zw);
    vec2 back = unpackHalf2x16(h);
    vec2 sn = unpackUnorm2x16(s);
    color = vec4(back - v.xy, sn - clamp(v.zw, 0.0, 1.0));
    packed_out = uvec2(h, s);
}
