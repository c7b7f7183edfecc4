#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Device addresses (buffer_reference): a push constant carries pointers to a node list and to
// an output array; the shader follows each node's next pointer and writes through another.
layout(local_size_x = 4) in;

layout(buffer_reference) buffer Node;
layout(buffer_reference, scalar) buffer Node {
    vec3 position;
    float weight;
    Node next;
};

layout(buffer_reference, scalar) buffer Floats {
    float values[];
};

layout(push_constant, scalar) uniform Roots {
    Node first;
    Floats out_values;
    uint steps;
} roots;

void main() {
    uint id = gl_LocalInvocationID.x;
    Node n = roots.first;
    float sum = 0.0;
    for (uint k = 0; k < min(roots.steps, 4u) && uint64_t(n) != 0; k++) {
        sum += n.weight * n.position[id % 3];
        n = n.next;
    }
    roots.out_values.values[id] = sum;
}
