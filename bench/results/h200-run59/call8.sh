#!/usr/bin/env bash
# Run 59, call 8 (one H200): call 4's comparison between its bounds, with 5d27a12's CLI (before
# the rule): --loop auto against --loop device on uniform graphs of 393K and 459K vertices (the
# unmeasured gap between 330K and 524K) and on Kronecker graphs of few vertices and many arcs
# (kron:18:32 and kron:17:64, ~15M arcs: the arcs bound), three sources each, 9 solves, the
# answers verified (exit status printed).
source build-carry/setup.sh
tar -xJf build-carry/b15.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call8.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for g in uniform:393216:7 uniform:458752:7 kron:18:32 kron:17:64; do
  for src in 1 1000 12345; do
    for loop in auto device; do
      echo "== $g $src delta_stepping --loop $loop"
      timeout 60 build/tropic sssp $g --source $src -a delta_stepping --loop $loop -v -r 9 --quiet --verify > /tmp/o.txt 2>&1
      echo "rc $?"; head -2 /tmp/o.txt; grep -i "verif" /tmp/o.txt
    done
  done
done
