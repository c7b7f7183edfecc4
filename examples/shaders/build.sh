#!/usr/bin/env bash
# Compiles every GLSL shader here to SPIR-V beside it (NAME.STAGE -> NAME.STAGE.spv) with
# glslangValidator for Vulkan 1.1 (SPIR-V 1.3: subgroup operations are core there), or, when
# glslang says the shader needs a newer SPIR-V (GL_EXT_ray_tracing …), for Vulkan 1.2, then 1.3,
# as Lathe itself does with GLSL input. Lathe's main job then runs on machines without glslang.
# Run it after editing a shader; a test checks the .spv files are up to date where glslang is
# installed.
set -euo pipefail
cd "$(dirname "$0")"
for f in *.vert *.frag *.comp; do
    [ -e "$f" ] || continue
    for env in vulkan1.1 vulkan1.2 vulkan1.3; do
        if log=$(glslangValidator -V --target-env "$env" --quiet -o "$f.spv" "$f" 2>&1); then break; fi
        if ! grep -q "targeted SPIR-V version" <<<"$log" || [ "$env" = vulkan1.3 ]; then echo "$log" >&2; exit 1; fi
    done
done
