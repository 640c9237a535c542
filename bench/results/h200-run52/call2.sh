#!/usr/bin/env bash
# Run 52, call 2: the warps merge path with its arcs loaded coalesced into shared memory
# (staged), beside precomputed first rows (partitioned), against the library kernel.
set -u
tar -xJf build-carry/p2.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/call2
T=build/bench/tune/tune_pull_merge_shapes
for pass in 1 2; do
  TROPIC_TUNE_PARTITION=1 $T data/cnr-2000.el.gz data/soc-Slashdot0902.txt.gz kron:20:16 \
    data/mdual.mtx.gz data/USA-road-d.NY.gr.gz uniform:4194304:7 kron:22:16 \
    > /tmp/call2/partition-$pass.log 2>&1
done
cat /tmp/call2/partition-1.log
tar -C /tmp -cf $OUT/call2.tar call2
