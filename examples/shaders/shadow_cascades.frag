#version 450
// Cascaded shadows and texture-access variety: an array of shadow maps picked by a run-time
// cascade index (sampler2DShadow with a depth reference, textureProj on the last cascade),
// percentage-closer filtering with textureOffset, a gathered 2x2 footprint (textureGather),
// explicit gradients (textureGrad) and a texture sampled through a separate sampler.
layout(location = 0) in vec3 worldPos;
layout(location = 1) in vec2 uv;
layout(location = 2) in float viewDepth;
layout(location = 0) out vec4 color;

layout(set = 0, binding = 0) uniform sampler2DShadow shadowMaps[3];
layout(set = 0, binding = 1) uniform sampler2D albedo;
layout(set = 0, binding = 2) uniform texture2D detail;
layout(set = 0, binding = 3) uniform sampler detailSampler;
layout(set = 0, binding = 4) uniform sampler2D occlusion;

layout(set = 0, binding = 5) uniform Cascades {
    mat4 lightViewProj[3];
    vec4 splits;
    vec2 texelSize;
};

float pcf(int cascade, vec3 coord) {
    float sum = 0.0;
    sum += texture(shadowMaps[cascade], coord);
    sum += textureOffset(shadowMaps[cascade], coord, ivec2(1, 0));
    sum += textureOffset(shadowMaps[cascade], coord, ivec2(0, 1));
    sum += textureOffset(shadowMaps[cascade], coord, ivec2(1, 1));
    return sum * 0.25;
}

void main() {
    int cascade = viewDepth < splits.x ? 0 : viewDepth < splits.y ? 1 : 2;
    vec4 lp = lightViewProj[cascade] * vec4(worldPos, 1.0);
    vec3 coord = lp.xyz / lp.w * 0.5 + 0.5;
    float lit = pcf(cascade, coord);
    // the farthest cascade once more, projectively, as a softer term
    float far = textureProj(shadowMaps[2], vec4(lp.xy * 0.5 + 0.5 * lp.w, lp.z, lp.w));
    lit = mix(lit, far, 0.25);

    vec4 base = textureGrad(albedo, uv, dFdx(uv) * 2.0, dFdy(uv));
    vec4 d = texture(sampler2D(detail, detailSampler), uv * 8.0);
    vec4 ao = textureGather(occlusion, uv, 0);
    float occl = dot(ao, vec4(0.25));
    vec4 fine = textureLodOffset(albedo, uv, 0.0, ivec2(-1, 1));

    color = vec4(base.rgb * (0.2 + 0.8 * lit) * occl * (0.75 + 0.5 * d.r) + 0.05 * fine.rgb, base.a);
}
