#!/usr/bin/env bash
# Compiles the geometry shaders here to SPIR-V beside them (NAME.geom -> NAME.geom.spv) with
# glslangValidator for Vulkan 1.1. They are kept apart from examples/shaders until the target
# runs geometry shaders (issue 48): the interpreter and the frontend read them already
# (tests/src/test/resources/filetests/run/spirv/*.geom.run). Run it after editing a shader.
set -euo pipefail
cd "$(dirname "$0")"
for f in *.geom; do
    glslangValidator -V --target-env vulkan1.1 --quiet -o "$f.spv" "$f"
done
