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
# Usage: scripts/fetch-peers.sh [--build-only] [--pack] [DIR]
#   Sources come from GitHub; where the network does not reach it, from TROPIC_PEERS_MIRROR:
#   a folder holding OWNER+NAME/repo (bare clones, e.g. /work/.mirror). --build-only skips the
#   fetch and builds from DIR/src as it is: for a machine without network that was handed DIR
#   (the GPU machine builds LAGraph against its own GraphBLAS there).
#   --pack then writes build-carry/peers.tar.xz (git-ignored; about 1 MB): DIR's binaries,
#   liblagraph, peers.txt, the sources without their history, data and papers, and the
#   GraphBLAS.h built against. On the GPU machine, from the repository root:
#     mkdir -p peers && tar -xJf build-carry/peers.tar.xz -C peers
#   and the binaries run there (libgraphblas.so.7 from build-carry/setup.sh's /tmp/gb); or
#   rebuild them there: scripts/fetch-peers.sh --build-only peers
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_only=0 pack=0 dir=""
for arg in "$@"; do
  case "$arg" in
    --build-only) build_only=1 ;;
    --pack) pack=1 ;;
    -h | --help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
  [ -d "$dir/src/$d" ] ||
    { echo "fetch-peers.sh: no $dir/src/$d (run without --build-only)" >&2; exit 1; }
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
# The GraphBLAS tropic builds against (SuiteSparse:GraphBLAS 7): GRAPHBLAS_ROOT if set
# (include/GraphBLAS.h, lib/libgraphblas.so*); else the header of a pack (DIR/grb/include, see
# --pack) or the system's, and the system's library or one on LD_LIBRARY_PATH (e.g. /tmp/gb
# from build-carry/setup.sh); else the Debian packages in .deps/debs (scripts/fetch-gpu-deps.sh).
grb_inc="" grb_lib=""
if [ -n "${GRAPHBLAS_ROOT:-}" ]; then
  grb_inc=$GRAPHBLAS_ROOT/include
  grb_lib=$(ls "$GRAPHBLAS_ROOT"/lib*/libgraphblas.so* 2>/dev/null | head -1)
else
  for d in "$dir/grb/include" /usr/include /usr/include/suitesparse; do
    if [ -f "$d/GraphBLAS.h" ]; then grb_inc=$d; break; fi
  done
  grb_lib=$( (ldconfig -p 2>/dev/null || true) | awk '/libgraphblas\.so/ {print $NF; exit}')
  if [ -z "$grb_lib" ]; then
    for d in ${LD_LIBRARY_PATH//:/ } /tmp/gb; do
      grb_lib=$(ls "$d"/libgraphblas.so* 2>/dev/null | head -1)
      [ -z "$grb_lib" ] || break
    done
  fi
  if { [ -z "$grb_inc" ] || [ -z "$grb_lib" ]; } && [ -d "$root/.deps/debs" ]; then
    prefix=/tmp/tropic-deps
    for f in "$root"/.deps/debs/*.deb; do dpkg -x "$f" "$prefix"; done
    grb_inc=$(dirname "$(find "$prefix" -name GraphBLAS.h | head -1)")
    grb_lib=$(find "$prefix" -name 'libgraphblas.so.*' | head -1)
  fi
fi
if ! [ -f "$grb_inc/GraphBLAS.h" ] || ! [ -f "$grb_lib" ]; then
  echo "fetch-peers.sh: no SuiteSparse:GraphBLAS (header '$grb_inc', library '$grb_lib'):" \
    "install libgraphblas-dev, set GRAPHBLAS_ROOT, or scripts/fetch-gpu-deps.sh" >&2
  exit 1
fi
# LAGraph's FindGraphBLAS wants a file named libgraphblas.so (and reads the version from the
# name it points to).
mkdir -p "$dir/build/grb"
ln -sf "$(readlink -f "$grb_lib")" "$dir/build/grb/libgraphblas.so"
cmake -S "$dir/src/LAGraph" -B "$dir/build/lagraph" -DCMAKE_BUILD_TYPE=Release \
  -DGRAPHBLAS_INCLUDE_DIR="$grb_inc" -DGRAPHBLAS_LIBRARY="$dir/build/grb/libgraphblas.so" \
  >"$dir/build/lagraph.log" 2>&1 || { tail -30 "$dir/build/lagraph.log"; exit 1; }
cmake --build "$dir/build/lagraph" --target lagraph -j"$jobs" >>"$dir/build/lagraph.log" 2>&1 ||
  { tail -30 "$dir/build/lagraph.log"; exit 1; }
# The driver finds liblagraph beside itself wherever DIR is carried ($ORIGIN), and GraphBLAS
# where it was built against, else on LD_LIBRARY_PATH (the GPU machine's /tmp/gb).
gcc -std=c11 -O3 -Wall -fopenmp -I"$dir/src/LAGraph/include" -I"$grb_inc" -I"$root/bench/peers" \
  "$root/bench/peers/lagraph_sssp_driver.c" -o "$dir/bin/lagraph_sssp_driver" \
  -L"$dir/build/lagraph" -llagraph "$dir/build/grb/libgraphblas.so" -lm \
  -Wl,-rpath,'$ORIGIN/../build/lagraph':"$(dirname "$(readlink -f "$grb_lib")")"
grb_lib=$(readlink -f "$grb_lib")
# The version in the library's file name (libgraphblas.so.7.4.0), as LAGraph's FindGraphBLAS.
grb_version=$(basename "$grb_lib" | sed 's/^libgraphblas\.so\.//')

cat >"$dir/peers.txt" <<EOF
# Written by scripts/fetch-peers.sh; read by tropic bench --peers: NAME DRIVER VERSION...
gap bin/gap_sssp_driver GAP $gap_tag (${gap_commit:0:7}), DeltaStep, g++ -O3 -fopenmp
lagraph bin/lagraph_sssp_driver LAGraph $lag_tag (${lag_commit:0:7}), \
LAGr_SingleSourceShortestPath, SuiteSparse:GraphBLAS $grb_version
EOF
echo "peers ready in $dir:"
cat "$dir/peers.txt"

if ((pack)); then
  mkdir -p "$dir/grb/include" "$root/build-carry"
  [ "$grb_inc" = "$dir/grb/include" ] || cp "$grb_inc/GraphBLAS.h" "$dir/grb/include/"
  XZ_OPT="-9 -T2" tar -cJf "$root/build-carry/peers.tar.xz" -C "$dir" --exclude=.git \
    --exclude=src/LAGraph/data --exclude=src/LAGraph/papers --exclude='*.o' \
    peers.txt bin grb src build/lagraph/liblagraph.so build/lagraph/liblagraph.so.1 \
    "build/lagraph/$(basename "$(readlink -f "$dir/build/lagraph/liblagraph.so")")"
  du -h "$root/build-carry/peers.tar.xz" | sed 's/^/fetch-peers.sh: packed /'
fi
