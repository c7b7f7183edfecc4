#!/usr/bin/env bash
# Real shaders nobody on the project wrote: the vertex, fragment and compute stages of the
# SaschaWillems/Vulkan samples (MIT; ../shared/corpora/sascha-willems-vulkan/, read there, never
# copied), compiled with glslangValidator as the samples compile them (from the file's own folder,
# --target-env vulkan1.1; rayquery/ needs vulkan1.2) and checked end to end:
# `lathe shaderdb --check 8 --check-vulkan 8` (the simulator against the interpreter, and the
# interpreter against the machine's Vulkan). A failure or a disagreement fails the script, except
# those listed in scripts/sascha-known.txt, each with its reason and reproducer; a listed one that
# now passes fails it too, so the list cannot go stale.
#
#   scripts/sascha-corpus.sh [--half] [--vulkan-device INDEX|NAME] [WORKDIR]   (default: /tmp/sascha-corpus)
#
# --half takes every other sample folder (a fixed half, in name order: what .ci/run runs).
# Needs glslangValidator and a built ./lathe; Vulkan is Mesa's lavapipe unless --vulkan-device says otherwise.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${SASCHA_CORPUS:-$root/../shared/corpora/sascha-willems-vulkan}/shaders/glsl"
half=""; device=()
while [ $# -gt 0 ]; do
    case "$1" in
        --half) half=yes; shift ;;
        --vulkan-device) device=(--vulkan-device "$2"); shift 2 ;;
        -*) echo "sascha-corpus.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
work="${1:-/tmp/sascha-corpus}"
if [ ! -d "$corpus" ]; then
    echo "sascha-corpus.sh: no corpus at $corpus (set SASCHA_CORPUS to the folder that holds shaders/glsl)" >&2
    exit 2
fi
rm -rf "$work/spv"; mkdir -p "$work/spv"
total=0; refused=0; k=0
for dir in "$corpus"/*/; do
    k=$((k + 1))
    if [ -n "$half" ] && [ $((k % 2)) = 0 ]; then continue; fi
    sample="$(basename "$dir")"
    env=vulkan1.1; [ "$sample" = rayquery ] && env=vulkan1.2
    for f in "$dir"*.vert "$dir"*.frag "$dir"*.comp; do
        [ -f "$f" ] || continue
        total=$((total + 1))
        out="$work/spv/${sample}_$(basename "$f").spv"
        if ! (cd "$dir" && glslangValidator -V --target-env "$env" --quiet -o "$out" "$(basename "$f")" > /dev/null 2>&1); then
            # descriptorheapuntyped/cube.{vert,frag} need an extension Debian's glslang 12 does not know
            refused=$((refused + 1)); rm -f "$out"
        fi
    done
done
echo "SaschaWillems: $total stage files${half:+ (the fixed half)}, $refused glslang does not take"
set +e
"$root/lathe" shaderdb --check 8 --check-vulkan 8 "${device[@]}" --no-times "$work/spv" | tee "$work/out.txt"
set -e
known="$root/scripts/sascha-known.txt"
status=0
# every failure and disagreement, by the shader's file name
{ grep -E '^(FAILED|DISAGREES vulkan|CRASHED vulkan) ' "$work/out.txt" || true; } | sed -E 's/^(FAILED|DISAGREES vulkan|CRASHED vulkan) ([^:]*):.*/\2/' | xargs -r -n1 basename | sort -u > "$work/bad.txt"
{ grep -vE '^[[:space:]]*(#|$)' "$known" || true; } | awk '{print $1}' | sort -u > "$work/known.txt"
while read -r name; do
    if ! grep -qxF "$name" "$work/known.txt"; then echo "sascha-corpus.sh: $name fails or disagrees and is not in scripts/sascha-known.txt" >&2; status=1; fi
done < "$work/bad.txt"
while read -r name; do
    if [ -f "$work/spv/$name" ] && ! grep -qxF "$name" "$work/bad.txt"; then
        echo "sascha-corpus.sh: $name is listed in scripts/sascha-known.txt but passes now: take it off the list" >&2; status=1
    fi
done < "$work/known.txt"
if ! grep -q '^vulkan: [0-9]* agree' "$work/out.txt"; then echo "sascha-corpus.sh: the Vulkan check did not finish" >&2; status=1; fi
echo "SaschaWillems: $(wc -l < "$work/bad.txt") failing or disagreeing, all listed: $([ $status = 0 ] && echo yes || echo no)"
exit $status
