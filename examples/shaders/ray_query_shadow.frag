#version 460
#extension GL_EXT_ray_tracing : enable
#extension GL_EXT_ray_query : enable
// Ray-traced shadows in a fragment shader: a ray query from the surface toward the light; a
// committed triangle hit darkens the fragment. Also reads where the nearest occluder is.
layout(binding = 0) uniform Light { vec3 position; float strength; } light;
layout(binding = 1) uniform accelerationStructureEXT scene;
layout(location = 0) in vec3 world_pos;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec3 albedo;
layout(location = 0) out vec4 color;
layout(location = 1) out vec4 occluder;

void main() {
    vec3 n = normalize(normal);
    vec3 to_light = light.position - world_pos;
    float dist = length(to_light);
    vec3 l = to_light / dist;
    float diffuse = max(dot(n, l), 0.0) * light.strength;

    rayQueryEXT shadow;
    rayQueryInitializeEXT(shadow, scene, gl_RayFlagsTerminateOnFirstHitEXT, 0xFF, world_pos + n * 0.001, 0.001, l, dist);
    rayQueryProceedEXT(shadow);
    bool lit = rayQueryGetIntersectionTypeEXT(shadow, true) != gl_RayQueryCommittedIntersectionTriangleEXT;
    color = vec4(albedo * (lit ? diffuse : 0.1 * diffuse), 1.0);

    rayQueryEXT nearest;
    rayQueryInitializeEXT(nearest, scene, gl_RayFlagsNoneEXT, 0xFF, world_pos, 0.0, n, 100.0);
    while (rayQueryProceedEXT(nearest)) { }
    if (rayQueryGetIntersectionTypeEXT(nearest, true) == gl_RayQueryCommittedIntersectionTriangleEXT) {
        vec2 bary = rayQueryGetIntersectionBarycentricsEXT(nearest, true);
        occluder = vec4(rayQueryGetIntersectionTEXT(nearest, true), bary,
                        float(rayQueryGetIntersectionPrimitiveIndexEXT(nearest, true)) + (rayQueryGetIntersectionFrontFaceEXT(nearest, true) ? 0.5 : 0.0));
    } else {
        occluder = vec4(-1.0);
    }
}
