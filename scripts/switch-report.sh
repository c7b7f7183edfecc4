#!/usr/bin/env bash
# The "What each part of the backend is worth" table of docs/RESULTS.md: every machine-pipeline
# switch off against everything on, over one corpus, as Markdown rows.
#   scripts/switch-report.sh examples/shaders          (or /tmp/glmark2/spv, see glmark2-corpus.sh)
# Each run checks every shader against the interpreter on 4 input sets (--check 4), which also
# gives the simulated cycles.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:?usage: scripts/switch-report.sh CORPUS_DIR}
out=$(mktemp -d)
switches=(sched const-operands preamble preload coalesce copyprop branches postsched)
./lathe shaderdb "$corpus" --no-times --check 4 -o "$out/on.csv" > /dev/null
row() { # label, csv: totals of the csv, then shaders helped / HURT by the part (off -> on)
    local t h
    t=$(./lathe report "$2" "$out/on.csv" --totals | awk -F'|' '
        { k = $2; gsub(/ /, "", k); x = $3; gsub(/ /, "", x); v[k] = x }
        END { printf " %s | %s | %s | %s | %s | %s", v["instructions"], v["nops"], v["mov"], v["(sy)"], v["full"], v["sim-cycles"] }')
    h=$(./lathe report "$2" "$out/on.csv" -m sim-cycles | awk '/^helped:/ { h = $2 } /^HURT:/ { u = $2 } END { printf "%d / %d", h, u }')
    echo "| $1 |$t | $h |"
}
echo "| switched off | instructions | nops | mov | \`(sy)\` | full | sim-cycles | shaders helped / HURT by the part |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
all=()
for s in "${switches[@]}"; do
    ./lathe shaderdb "$corpus" --no-times --check 4 "--no-$s" -o "$out/no-$s.csv" > /dev/null
    row "\`--no-$s\`" "$out/no-$s.csv"
    all+=("--no-$s")
done
./lathe shaderdb "$corpus" --no-times --check 4 "${all[@]}" -o "$out/none.csv" > /dev/null
row "all off" "$out/none.csv"
echo
./lathe report "$out/on.csv" "$out/on.csv" --totals | awk -F'|' '
    { k = $2; gsub(/ /, "", k); x = $3; gsub(/ /, "", x); v[k] = x }
    END { printf "everything on: %s instructions, %s nops, %s movs, %s (sy), %s full, %s simulated cycles\n",
          v["instructions"], v["nops"], v["mov"], v["(sy)"], v["full"], v["sim-cycles"] }'
for s in "${switches[@]}"; do ./lathe report "$out/no-$s.csv" "$out/on.csv" -m sim-cycles | grep "sim-cycles HURT" | sed "s/^/--no-$s: /" || true; done
for s in "${switches[@]}"; do ./lathe report "$out/no-$s.csv" "$out/on.csv" --totals | grep "waves lower" | sed "s/^/--no-$s: /"; done
rm -rf "$out"
