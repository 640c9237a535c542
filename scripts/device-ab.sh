#!/usr/bin/env bash
# A/B timing of CLI builds in one call of the GPU machine, the variants alternating graph by
# graph (how the files in bench/results/*/sweeps were measured; one call, because timings move
# by up to 10-20% between calls of the device tool).
#
# Here, after each variant's build (configure as in scripts/device-carry.sh):
#   scripts/device-ab.sh pack NAME [BUILD_DIR]
#       strips BUILD_DIR/tropic (default build) into build-carry/tropic-NAME.xz (~4 MB each;
#       the carry, the tracked tree and data/ together stay under 64 MiB)
# There, from the repository root, after `source build-carry/setup.sh`:
#   scripts/device-ab.sh run [-a ALGORITHM] [-g GRAPHS] [-n] [-v] NAME...
#       for every line "GRAPH SOURCE [REPEAT]" of GRAPHS (default scripts/ab-graphs.txt),
#       runs `tropic sssp GRAPH -s SOURCE -a ALGORITHM -r REPEAT --verify` with each variant in
#       turn (NAME `build` is build/tropic itself) and prints one row per graph: each variant's
#       median solve in ms, a `!` after a variant whose answer failed --verify. -n skips the
#       check (the CPU Dijkstra takes ~5 s per run on kron-22); -v adds each run's verbose
#       statistics lines under the row.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,17p' "$0" >&2; exit 2; }
[ $# -ge 1 ] || usage
cmd=$1
shift

case "$cmd" in
  pack)
    [ $# -ge 1 ] || usage
    name=$1 build=${2:-build}
    [ -x "$build/tropic" ] || { echo "device-ab.sh: no $build/tropic: build first" >&2; exit 1; }
    mkdir -p build-carry
    tmp=$(mktemp)
    strip -o "$tmp" "$build/tropic"
    xz -9 -T2 -c "$tmp" >"build-carry/tropic-$name.xz"
    rm -f "$tmp"
    du -h "build-carry/tropic-$name.xz" | sed 's/^/device-ab.sh: /'
    ;;
  run)
    algorithm=adds graphs=scripts/ab-graphs.txt verbose=0 verify=--verify
    while getopts "a:g:nv" opt; do
      case $opt in
        a) algorithm=$OPTARG ;;
        g) graphs=$OPTARG ;;
        n) verify= ;;
        v) verbose=1 ;;
        *) usage ;;
      esac
    done
    shift $((OPTIND - 1))
    [ $# -ge 1 ] || usage
    bin=()
    for name in "$@"; do
      if [ "$name" = build ]; then
        bin+=(build/tropic)
      else
        xz -dc "build-carry/tropic-$name.xz" >"/tmp/tropic-$name"
        chmod +x "/tmp/tropic-$name"
        bin+=("/tmp/tropic-$name")
      fi
    done
    printf "%-36s" "graph -s source ($algorithm, median ms)"
    for name in "$@"; do printf " %12s" "$name"; done
    echo
    while read -r graph source repeat _; do
      case "$graph" in "" | \#*) continue ;; esac
      row=$(printf "%-36s" "$(basename "$graph") -s $source")
      details=""
      for i in "${!bin[@]}"; do
        out=$("${bin[$i]}" sssp "$graph" -s "$source" -a "$algorithm" -r "${repeat:-5}" $verify \
                -v --quiet 2>&1) || true
        ms=$(sed -n 's/.*solve \([0-9.]*\) ms.*/\1/p' <<<"$out" | tail -1)
        mark=" "
        if [ -z "$ms" ] || { [ -n "$verify" ] && ! grep -q "verify OK" <<<"$out"; }; then mark="!"; fi
        row+=$(printf " %11s%s" "${ms:--}" "$mark")
        if [ "$verbose" = 1 ]; then
          details+=$(grep -E "^$algorithm: |^  weights" <<<"$out" | grep -v "solve .* ms" | head -4 |
                       sed "s/^/    $(basename "${bin[$i]}"): /")$'\n'
        fi
      done
      echo "$row"
      [ -z "$details" ] || printf "%s" "$details"
    done <"$graphs"
    ;;
  *) usage ;;
esac
