#!/usr/bin/env bash
# Run 58, call 2 (one H200): call 1's lb3 (3 blocks an SM) again, and three variants, each
# against HEAD's library (head57): lb3s (bound 3, 3 blocks an SM only where local rounds run,
# 2 elsewhere), pp (push_row loads the next arc before this arc's atomic) and pp3s (both). The
# builds alternating, three rounds, every row certified.
source build-carry/setup.sh
tar -xJf build-carry/b6.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call2.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
mkdir -p /tmp/call2
for round in 1 2 3; do
  for v in head57 lb3 lb3s pp pp3s; do
    timeout 100 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7,kron:20:16,kron:22:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv /tmp/call2/bench-$v-$round.csv
  done
  tar -C /tmp -cJf $OUT/call2-bench.tar.xz call2
done
