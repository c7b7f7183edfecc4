#!/usr/bin/env bash
# Real public shaders: the GLSL of Debian's glmark2-data (glmark2's OpenGL ES 2.0 benchmark
# scenes), made Vulkan GLSL the mechanical way (#version 450; attribute/varying to in/out;
# gl_FragColor to a declared output; texture2D/textureCube to texture; glmark2's $NAME$
# placeholders dropped), compiled with glslangValidator -V -R (relaxed Vulkan rules: loose
# uniforms go into a block) and checked end to end with `lathe shaderdb --check`.
# Shaders that still need constants glmark2 defines at run time are skipped by glslang, and
# counted. Needs apt-get (network), glslangValidator and a built ./lathe.
#
#   scripts/glmark2-corpus.sh [WORKDIR]     (default: /tmp/glmark2-corpus)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-/tmp/glmark2-corpus}"
mkdir -p "$work/deb" "$work/glsl" "$work/spv"
cd "$work/deb"
[ -n "$(ls glmark2-data_*.deb 2>/dev/null)" ] || apt-get download glmark2-data
dpkg-deb -x glmark2-data_*.deb .
total=0; skipped=0
for f in usr/share/glmark2/shaders/*.vert usr/share/glmark2/shaders/*.frag; do
    total=$((total + 1))
    name="$(basename "$f")"
    out="$work/glsl/$name"
    {
        echo "#version 450"
        if [[ "$name" == *.frag ]] && grep -q gl_FragColor "$f"; then echo "layout(location = 0) out vec4 glmark_FragColor;"; fi
        sed -E -e '/^[[:space:]]*#version/d' -e 's/\btexture(2D|Cube)\b/texture/g' -e 's/\$[A-Z_]+\$//g' \
            -e 's/\bgl_FragColor\b/glmark_FragColor/g' \
            -e "$([[ "$name" == *.vert ]] && echo 's/\battribute\b/in/g; s/\bvarying\b/out/g' || echo 's/\bvarying\b/in/g')" "$f"
    } > "$out"
    if ! glslangValidator -V -R --aml --amb --quiet -o "$work/spv/$name.spv" "$out" > /dev/null 2>&1; then
        skipped=$((skipped + 1))
        rm -f "$work/spv/$name.spv"
    fi
done
echo "glmark2-data: $total shaders, $skipped need glmark2's run-time constants (skipped)"
"$root/lathe" shaderdb --check 8 --check-vulkan 16 "$work/spv"
