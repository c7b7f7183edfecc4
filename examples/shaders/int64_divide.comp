#version 450
#extension GL_ARB_gpu_shader_int64 : require
// 64-bit integer division and remainder, signed and unsigned, as a nanosecond timestamp split
// into days, hours, minutes and seconds (lower_int64: a double estimate and two corrections).
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer Stamps { uint64_t ns[4]; int64_t delta[4]; } s;
layout(std430, set = 0, binding = 1) buffer Out { uint w[]; } res;

void main() {
    uint i = gl_LocalInvocationIndex;
    uint64_t t = s.ns[i];
    uint64_t secs = t / 1000000000ul;
    uint64_t days = secs / 86400ul;
    uint64_t rest = secs % 86400ul;
    int64_t d = s.delta[i];
    int64_t step = s.delta[(i + 1u) & 3u];
    int64_t q = d / step;
    int64_t r = d % step;
    uint64_t mix = t / (uint64_t(i) + 3ul) + t % uint64_t(step | 1l);
    res.w[8u * i + 0u] = uint(days);
    res.w[8u * i + 1u] = uint(rest / 3600ul);
    res.w[8u * i + 2u] = uint(rest % 60ul);
    res.w[8u * i + 3u] = uint(q);
    res.w[8u * i + 4u] = uint(q >> 32);
    res.w[8u * i + 5u] = uint(r);
    res.w[8u * i + 6u] = uint(mix);
    res.w[8u * i + 7u] = uint(mix >> 32);
}
