#!/usr/bin/env bash
# Run 52, call 1: the warps' merge path with each warp's first row precomputed (outside the
# timing) against the search in every warp, at 9, 12 and 16 blocks a SM.
set -u
tar -xJf build-carry/p1.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/call1
T=build/bench/tune/tune_pull_merge_shapes
for pass in 1 2; do
  TROPIC_TUNE_PARTITION=1 $T data/cnr-2000.el.gz data/soc-Slashdot0902.txt.gz kron:20:16 \
    data/mdual.mtx.gz data/USA-road-d.NY.gr.gz uniform:4194304:7 kron:22:16 \
    > /tmp/call1/partition-$pass.log 2>&1
done
cat /tmp/call1/partition-1.log
tar -C /tmp -cf $OUT/call1.tar call1
