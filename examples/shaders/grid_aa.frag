#version 450
// Anti-aliased grid lines widened by fwidth/dFdx/dFdy (0 here: one fragment at a time, see spirv/README).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    vec2 w = fwidth(uv) + abs(dFdx(uv)) + abs(dFdy(uv));
    float grid = smoothstep(0.45 - w.x, 0.45 + w.x + 0.01, fract(uv.x * 8.0));
    color = vec4(grid, w, 1.0);
}
