#!/usr/bin/env bash
# Fetches and builds the outside SSSP programs that `tropic bench --peers DIR` measures tropic
# against (issue 37), in DIR (default: peers/ at the repository root, git-ignored). Nothing of
# their code enters this repository: their sources are cloned into DIR/src at pinned commits,
# built there, and our two drivers (bench/peers/) are compiled against them.
#   GAP Benchmark Suite (sbeamer/gapbs, BSD): its own `sssp` (its Makefile, OpenMP), and
#     gap_sssp_driver (ours) around its DeltaStep: reads a graph, runs given sources with a
#     warm-up and timed runs, writes distances (GAP's sssp can only verify, not write them).
#   LAGraph (GraphBLAS/LAGraph, BSD-2): liblagraph of the last release that builds against the
#     SuiteSparse:GraphBLAS 7.x the project uses (Debian's libgraphblas-dev; .deps/debs on the
#     GPU machine), and lagraph_sssp_driver (ours) around LAGr_SingleSourceShortestPath.
# DIR/peers.txt then lists them for the bench: NAME DRIVER VERSION...
#
# Usage: scripts/fetch-peers.sh [--build-only] [DIR]
#   Sources come from GitHub; where the network does not reach it, from TROPIC_PEERS_MIRROR:
#   a folder holding OWNER+NAME/repo (bare clones, e.g. /work/.mirror). --build-only skips the
#   fetch and builds from DIR/src as it is: for a machine without network that was handed DIR
#   (the GPU machine builds LAGraph against its own GraphBLAS there).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_only=0 dir=""
for arg in "$@"; do
  case "$arg" in
    --build-only) build_only=1 ;;
    -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fetch-peers.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
    *) [ -z "$dir" ] || { echo "fetch-peers.sh: one DIR only" >&2; exit 2; }; dir=$arg ;;
  esac
done
dir=${dir:-$root/peers}
mkdir -p "$dir/src" "$dir/bin" "$dir/build"
dir=$(cd "$dir" && pwd)

# The pins: a tag for the reader, the commit for the checkout.
gap_repo=sbeamer/gapbs gap_tag=v1.5 gap_commit=b5e3e19c2845f22fb338f4a4bc4b1ccee861d026
# LAGraph 1.1 needs GraphBLAS 8 or later; 1.0.2 is the last release for GraphBLAS 7.
lag_repo=GraphBLAS/LAGraph lag_tag=v1.0.2 lag_commit=7887f54875d5659e701809d623031fe0afd0aa0c

fetch() {  # REPO COMMIT DEST
  local repo=$1 commit=$2 dest=$3
  if [ -d "$dest/.git" ] && [ "$(git -C "$dest" rev-parse HEAD)" = "$commit" ]; then
    echo "$repo: $dest already at ${commit:0:7}"
    return
  fi
  rm -rf "$dest"
  if timeout 120 git clone -q "https://github.com/$repo" "$dest" 2>/dev/null; then
    echo "$repo: cloned from GitHub"
  elif [ -n "${TROPIC_PEERS_MIRROR:-}" ] && [ -d "$TROPIC_PEERS_MIRROR/${repo/\//+}/repo" ]; then
    rm -rf "$dest"
    git clone -q "$TROPIC_PEERS_MIRROR/${repo/\//+}/repo" "$dest"
    echo "$repo: cloned from the mirror $TROPIC_PEERS_MIRROR"
  else
    echo "fetch-peers.sh: cannot clone https://github.com/$repo, and TROPIC_PEERS_MIRROR" \
      "(${TROPIC_PEERS_MIRROR:-unset}) holds no ${repo/\//+}/repo" >&2
    exit 1
  fi
  git -C "$dest" -c advice.detachedHead=false checkout -q "$commit" ||
    { echo "fetch-peers.sh: $repo has no commit $commit" >&2; exit 1; }
}

if ((!build_only)); then
  fetch "$gap_repo" "$gap_commit" "$dir/src/gapbs"
  fetch "$lag_repo" "$lag_commit" "$dir/src/LAGraph"
fi
for d in gapbs LAGraph; do
  [ -d "$dir/src/$d" ] || { echo "fetch-peers.sh: no $dir/src/$d (run without --build-only)" >&2; exit 1; }
done
jobs=${TROPIC_JOBS:-$(nproc)}

echo "== GAP: sssp (its Makefile) and gap_sssp_driver"
make -s -C "$dir/src/gapbs" sssp >/dev/null
cp "$dir/src/gapbs/sssp" "$dir/bin/gap_sssp"
# GAP's own flags (its Makefile: -std=c++11 -O3 -Wall -fopenmp), so that DeltaStep is compiled
# as in its own binary.
g++ -std=c++11 -O3 -Wall -fopenmp -I"$dir/src/gapbs/src" -I"$root/bench/peers" \
  "$root/bench/peers/gap_sssp_driver.cc" -o "$dir/bin/gap_sssp_driver"

echo "== LAGraph $lag_tag: liblagraph and lagraph_sssp_driver"
# The GraphBLAS tropic builds against: the system's, else the Debian packages carried in
# .deps/debs (the GPU machine; unpacked as scripts/gpu-check.sh does).
grb_root=""
if ! [ -f /usr/include/GraphBLAS.h ] && ! [ -f /usr/include/suitesparse/GraphBLAS.h ]; then
  [ -d "$root/.deps/debs" ] ||
    { echo "fetch-peers.sh: no GraphBLAS.h and no .deps/debs (scripts/fetch-gpu-deps.sh)" >&2; exit 1; }
  prefix=/tmp/tropic-deps
  for f in "$root"/.deps/debs/*.deb; do dpkg -x "$f" "$prefix"; done
  multiarch=$(ls "$prefix/usr/lib" | grep -m1 linux-gnu)
  grb_root=$prefix/usr
  mkdir -p "$grb_root/lib/grb" && ln -sf "$prefix/usr/lib/$multiarch"/libgraphblas.so* "$grb_root/lib/grb/"
fi
cmake_args=(-DCMAKE_BUILD_TYPE=Release)
[ -z "$grb_root" ] || cmake_args+=(-DGRAPHBLAS_ROOT="$grb_root"
  -DGRAPHBLAS_INCLUDE_DIR="$grb_root/include" -DGRAPHBLAS_LIBRARY="$grb_root/lib/grb/libgraphblas.so")
cmake -S "$dir/src/LAGraph" -B "$dir/build/lagraph" "${cmake_args[@]}" >"$dir/build/lagraph.log" 2>&1 ||
  { tail -30 "$dir/build/lagraph.log"; exit 1; }
cmake --build "$dir/build/lagraph" --target lagraph -j"$jobs" >>"$dir/build/lagraph.log" 2>&1 ||
  { tail -30 "$dir/build/lagraph.log"; exit 1; }
grb_lib=$(sed -n 's/^GRAPHBLAS_LIBRARY:FILEPATH=//p' "$dir/build/lagraph/CMakeCache.txt")
grb_inc=$(sed -n 's/^GRAPHBLAS_INCLUDE_DIR:PATH=//p' "$dir/build/lagraph/CMakeCache.txt")
lag_lib=$(dirname "$(find "$dir/build/lagraph" -name 'liblagraph.so' | head -1)")
gcc -std=c11 -O3 -Wall -fopenmp -I"$dir/src/LAGraph/include" -I"$grb_inc" -I"$root/bench/peers" \
  "$root/bench/peers/lagraph_sssp_driver.c" -o "$dir/bin/lagraph_sssp_driver" \
  -L"$lag_lib" -llagraph "$grb_lib" -lm -Wl,-rpath,"$lag_lib:$(dirname "$grb_lib")"
grb_version=$(sed -n 's/^GRAPHBLAS_VERSION.*= *//p;s/.*GraphBLAS version: *//p' "$dir/build/lagraph.log" | head -1)
grb_version=${grb_version:-$(basename "$(readlink -f "$grb_lib")" | sed 's/libgraphblas.so.//')}

cat >"$dir/peers.txt" <<EOF
# Written by scripts/fetch-peers.sh; read by tropic bench --peers: NAME DRIVER VERSION...
gap bin/gap_sssp_driver GAP $gap_tag (${gap_commit:0:7}), DeltaStep, g++ -O3 -fopenmp
lagraph bin/lagraph_sssp_driver LAGraph $lag_tag (${lag_commit:0:7}), LAGr_SingleSourceShortestPath, SuiteSparse:GraphBLAS $grb_version
EOF
echo "peers ready in $dir:"
cat "$dir/peers.txt"
