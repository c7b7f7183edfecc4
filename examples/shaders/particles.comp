#version 450
// Particle integration: velocity from gravity and drag, bounce off the floor.
layout(local_size_x = 16) in;
struct Particle { vec4 position; vec4 velocity; };
layout(std430, set = 0, binding = 0) buffer Particles { Particle p[]; } ps;
layout(push_constant) uniform P { float dt; uint count; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    vec3 x = ps.p[i].position.xyz;
    vec3 v = ps.p[i].velocity.xyz;
    v += vec3(0.0, -9.81, 0.0) * pc.dt;
    v *= 1.0 - 0.1 * pc.dt;
    x += v * pc.dt;
    if (x.y < 0.0) { x.y = -x.y; v.y = -v.y * 0.8; }
    ps.p[i].position.xyz = x;
    ps.p[i].velocity.xyz = v;
}
