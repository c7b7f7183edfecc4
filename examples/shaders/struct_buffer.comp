#version 450
// Particles as whole structs in a storage buffer: each is loaded, moved by a column-major and a
// row-major matrix, and stored back whole; a row-major column is also read on its own.
layout(local_size_x = 4) in;
struct Particle {
    vec3 position;
    float age;
    vec4 velocity;
    uint flags[2];
};
layout(std430, set = 0, binding = 0) buffer Particles {
    mat4 transform;
    layout(row_major) mat3x4 skew;
    Particle particles[];
};
layout(std430, set = 0, binding = 1) buffer Stats {
    vec4 firstColumn;
    Particle oldest;
};

void main() {
    uint i = gl_GlobalInvocationID.x;
    Particle p = particles[i];
    vec4 moved = transform * vec4(p.position, 1.0) + p.velocity * 0.5;
    vec3 skewed = (skew * moved.xyz).xyz;
    p.position = mix(moved.xyz, skewed, 0.25);
    p.age += 1.0;
    p.flags[1] = p.flags[0] ^ (i * 2654435761u);
    particles[i] = p;
    if (i == 0u) {
        firstColumn = skew[1];
        oldest = p;
    }
}
