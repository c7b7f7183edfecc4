#version 450
#extension GL_EXT_fragment_shading_rate : require
// Variable-rate shading: shows the rate each fragment was shaded at as a colour.
layout(location = 0) in vec3 albedo;
layout(location = 0) out vec4 color;

void main() {
    int rate = gl_ShadingRateEXT;
    int h = (rate & gl_ShadingRateFlag4HorizontalPixelsEXT) != 0 ? 4 : (rate & gl_ShadingRateFlag2HorizontalPixelsEXT) != 0 ? 2 : 1;
    int v = (rate & gl_ShadingRateFlag4VerticalPixelsEXT) != 0 ? 4 : (rate & gl_ShadingRateFlag2VerticalPixelsEXT) != 0 ? 2 : 1;
    vec3 tint = vec3(float(h) / 4.0, float(v) / 4.0, float(h * v) / 16.0);
    color = vec4(mix(albedo, tint, 0.5), 1.0);
}
