#!/usr/bin/env bash
# Run 54, call 4 (one H200): a local round's row loads its vertex's value with its arcs (new)
# against dce0471 (base). The hop probe, base / new twice; the solvers on the graphs of short
# rows through the bench, base / new twice, every row checked by the certificate; then the GPU
# solver suites on new.
source build-carry/setup.sh
tar -xJf build-carry/b4.tar.xz
exec > $OUT/call4.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for round in 1 2; do
  for v in base54 new54; do
    echo "== hop $v $round"
    timeout 60 build/ab/tune_delta_stepping.$v 'hop latency' | grep "paths"
  done
done
for round in 1 2; do
  for v in base54 new54; do
    timeout 100 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7 \
      --algorithms delta_stepping,adds --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv $OUT/bench-$v-$round.csv
  done
done
timeout 240 build/test/tropic_tests -ts=delta_stepping,bellman_ford_negative,edge_wise,adds,rdbs,many_sources_gpu,near_far_blocks,delta_stepping_batch \
  > /tmp/solvers.log 2>&1; echo "solvers rc $?"; tail -4 /tmp/solvers.log
