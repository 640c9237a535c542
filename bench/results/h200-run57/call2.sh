#!/usr/bin/env bash
# Run 57, call 2 (one H200): why call 1's "new" lost 3-8% on NY, mdual and cnr-2000. Without
# carried arcs ptxas held bucket_loop to 80 registers (room for 3 blocks an SM; 2 are launched).
# Four builds, alternating, three rounds, every row certified: off (HEAD 29e30cb's library), new
# (call 1's), lb2 (new with __launch_bounds__(256, 2): 91-96 registers, 2 blocks an SM) and lb3
# (new with __launch_bounds__(256, 3) and 3 blocks an SM: 80 registers). The hop probe of lb2, lb3.
source build-carry/setup.sh
tar -xJf build-carry/b2.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call2.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for v in lb2 lb3; do echo "== hop $v"; timeout 60 build/ab/tune_delta_stepping.$v 'hop latency' | grep "paths" | grep -v "rounds 0 "; done
mkdir -p /tmp/call2
for round in 1 2 3; do
  for v in off new lb2 lb3; do
    timeout 120 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7,kron:20:16,kron:22:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv /tmp/call2/bench-$v-$round.csv
  done
done
tar -C /tmp -cJf $OUT/call2-bench.tar.xz call2
