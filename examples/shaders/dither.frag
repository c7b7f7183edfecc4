#version 450
// Ordered dithering with a 4x4 Bayer matrix indexed by the pixel position.
layout(location = 0) in vec3 c;
layout(location = 0) out vec4 color;

void main() {
    const float bayer[16] = float[](0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0, 3.0, 11.0, 1.0, 9.0, 15.0, 7.0, 13.0, 5.0);
    ivec2 p = ivec2(gl_FragCoord.xy) & 3;
    float threshold = (bayer[p.y * 4 + p.x] + 0.5) / 16.0;
    color = vec4(step(vec3(threshold), c), 1.0);
}
