#!/usr/bin/env bash
# Run 57, call 3 (one H200): cnr-2000 stayed 9% slower in call 2 with either launch bound. It
# runs without local rounds, yet its steps still queued every improvement (now up to 512 rows a
# block, 192 before) and prefetched its arcs, only to list it at round 0. v2: lb2, and a step
# without local rounds lists its improvements at once; v3: v2 with __launch_bounds__(256, 3) and
# 3 blocks an SM. Against off (HEAD 29e30cb's library) and lb2, alternating, three rounds.
source build-carry/setup.sh
tar -xJf build-carry/b3.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call3.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
mkdir -p /tmp/call3
for round in 1 2 3; do
  for v in off lb2 v2 v3; do
    timeout 120 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7,kron:20:16,kron:22:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv /tmp/call3/bench-$v-$round.csv
  done
done
tar -C /tmp -cJf $OUT/call3-bench.tar.xz call3
