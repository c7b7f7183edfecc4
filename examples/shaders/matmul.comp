#version 450
// 4x4 matrix product over buffers with nested loops; each invocation makes one element.
layout(local_size_x = 4, local_size_y = 4) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[16]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[16]; };
layout(std430, set = 0, binding = 2) buffer C { float c[16]; };

void main() {
    uint row = gl_LocalInvocationID.y, col = gl_LocalInvocationID.x;
    float sum = 0.0;
    for (uint k = 0u; k < 4u; k++) sum += a[row * 4u + k] * b[k * 4u + col];
    c[row * 4u + col] = sum;
}
