#!/usr/bin/env bash
# Compile speed, Lathe against Mesa's ir3, side by side in one run (docs/PERFORMANCE.md,
# "Compile speed"). From the project root:
#
#   bench/compare-ir3.sh [SHADER_DIR] [COLD_SHADER]
#
# defaults: examples/shaders and examples/shaders/pbr.frag.spv. Prints four measurements:
#   warm    per-shader compile time inside one process: Lathe's `shaderdb` over the corpus
#           repeated five times (--jobs 1), the last pass; ir3's own compile_ms (C has no warm-up).
#           Median and total over the shaders both compile.
#   cold    one command compiling one shader, wall time, median of 7 runs
#           (`./lathe compile FILE --emit stats` against `ir3_vk_compiler --stats-only FILE`).
#   batch   the whole corpus as a build would do it: Lathe in one command
#           (`./lathe compile DIR/*.spv --emit stats`) against ir3 once per file, wall time.
#   start   `./lathe --version`, median of 7.
# The ir3 peer comes from ../shared/peers/ir3 (IR3_PEER overrides the folder; its build.sh makes
# the binary, whose path IR3_VK overrides); without either the ir3 columns are skipped with a message. Needs python3 for the statistics.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
dir=${1:-examples/shaders}
cold=${2:-examples/shaders/pbr.frag.spv}
peer=${IR3_PEER:-$root/../shared/peers/ir3}
ir3=${IR3_VK:-/tmp/mesa-ir3/build/src/freedreno/ir3/ir3_vk_compiler}
have_ir3=yes
if [ ! -x "$peer/run.sh" ]; then
  have_ir3=""
  echo "ir3: no $peer/run.sh (set IR3_PEER to the folder of ../shared/peers/ir3); measuring Lathe alone" >&2
elif [ ! -x "$ir3" ]; then
  have_ir3=""
  echo "ir3: no $ir3 (build it with $peer/build.sh, or set IR3_VK); measuring Lathe alone" >&2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

./lathe --version > /dev/null # builds the jar (and its CDS archive) if a source is newer

# wall seconds of one run of a command, output discarded
wall() {
  local s e
  s=$(date +%s%N)
  "$@" > /dev/null 2>&1 || true
  e=$(date +%s%N)
  awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f\n", (e - s) / 1e9 }'
}
median7() {
  local xs=()
  for _ in 1 2 3 4 5 6 7; do xs+=("$(wall "$@")"); done
  printf '%s\n' "${xs[@]}" | sort -n | sed -n 4p
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(java -version 2>&1 | head -1)"
echo "corpus: $dir ($(find "$dir" -name '*.spv' | wc -l) shaders)"

# ---- warm ----------------------------------------------------------------------------------
./lathe shaderdb "$dir" "$dir" "$dir" "$dir" "$dir" --jobs 1 -o "$tmp/lathe.csv" > /dev/null
if [ -n "$have_ir3" ]; then
  "$peer/run.sh" "$tmp/ir3.csv" "$dir" > /dev/null
fi
python3 - "$tmp/lathe.csv" "${have_ir3:+$tmp/ir3.csv}" <<'EOF'
import csv, statistics, sys
def times(path, last):
    out = {}
    for r in csv.DictReader(open(path)):
        if r['compile-ms'] and not r.get('error'):
            out.setdefault(r['name'], []).append(float(r['compile-ms']))
    return {k: (v[-1] if last else v[0]) for k, v in out.items()}
lathe = times(sys.argv[1], True)
ir3 = times(sys.argv[2], False) if len(sys.argv) > 2 and sys.argv[2] else None
both = sorted(set(lathe) & set(ir3)) if ir3 is not None else sorted(lathe)
def line(name, t):
    v = [t[k] for k in both]
    return f"{name:6} median {statistics.median(v):6.2f} ms   total {sum(v):7.1f} ms"
print(f"warm, per shader ({len(both)} shaders{' both compile' if ir3 is not None else ''}; Lathe: last of 5 passes, --jobs 1):")
print("  " + line("lathe", lathe))
if ir3 is not None:
    print("  " + line("ir3", ir3))
    print(f"  ratio  median {statistics.median([lathe[k] for k in both]) / statistics.median([ir3[k] for k in both]):.2f}x"
          f"   total {sum(lathe[k] for k in both) / sum(ir3[k] for k in both):.2f}x")
EOF

# ---- cold ----------------------------------------------------------------------------------
echo "cold, one command, $cold (median of 7, wall):"
echo "  lathe  $(median7 ./lathe compile "$cold" --emit stats) s"
if [ -n "$have_ir3" ]; then
  echo "  ir3    $(median7 "$ir3" --gpu 630 --stats-only "$cold") s"
fi

# ---- batch ---------------------------------------------------------------------------------
mapfile -t files < <(find "$dir" -name '*.spv' | sort)
echo "batch, all ${#files[@]} shaders (wall):"
echo "  lathe  $(wall ./lathe compile "${files[@]}" --emit stats) s (one command)"
if [ -n "$have_ir3" ]; then
  ir3_all() { for f in "${files[@]}"; do "$ir3" --gpu 630 --stats-only "$f" > /dev/null 2>&1 || true; done; }
  echo "  ir3    $(wall ir3_all) s (one process per shader)"
fi

# ---- start ---------------------------------------------------------------------------------
echo "start: ./lathe --version $(median7 ./lathe --version) s; java -version $(median7 java -version) s"
