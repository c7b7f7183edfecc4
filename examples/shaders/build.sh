#!/usr/bin/env bash
# Compiles every GLSL shader here to SPIR-V beside it (NAME.STAGE -> NAME.STAGE.spv) with
# glslangValidator (Vulkan 1.1, SPIR-V 1.3: subgroup operations are core there), so Lathe's main job runs on machines without glslang. Run it after editing
# a shader; a test checks the .spv files are up to date where glslang is installed.
set -euo pipefail
cd "$(dirname "$0")"
for f in *.vert *.frag *.comp; do
    [ -e "$f" ] || continue
    glslangValidator -V --target-env vulkan1.1 --quiet -o "$f.spv" "$f"
done
