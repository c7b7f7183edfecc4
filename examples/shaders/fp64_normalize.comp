#version 450
// Double-precision vector math the target has no instruction for: division, sqrt and
// inversesqrt on doubles (lowered by lower_doubles, correctly rounded), per element.
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer Points { dvec4 p[]; } pts;
layout(std430, set = 0, binding = 1) buffer Out { dvec4 o[]; } res;

void main() {
    uint i = gl_LocalInvocationIndex;
    dvec3 v = pts.p[i].xyz;
    double w = pts.p[i].w;
    double len = sqrt(dot(v, v));
    dvec3 n = v / len;                       // fdiv on each component
    double inv = inversesqrt(w * w + 1.0lf);  // frsq
    double ratio = w / (len + 1.0lf);
    res.o[i] = dvec4(n * inv, ratio + 1.0lf / (w + 2.0lf));
}
