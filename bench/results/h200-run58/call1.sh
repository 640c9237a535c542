#!/usr/bin/env bash
# Run 58, call 1 (one H200): HEAD 16fb9d9's library (head57: carried arcs removed, 192-row queue,
# launch bound 2) against 29e30cb's (off), its timings never taken in run 57; with them two
# experiments on delta_stepping_device.cu alone: lb3 (3 blocks an SM, bound 3: 80 registers) and
# u2 (a group with two queued rows in a local round pushes them side by side). The hop probe;
# the bench, the builds alternating, three rounds, every row certified; the quick suite's
# validity on head57.
source build-carry/setup.sh
tar -xJf build-carry/b5.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call1.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for v in head57 u2; do echo "== hop $v"; timeout 60 build/ab/tune_delta_stepping.$v 'hop latency' | grep "paths" | grep -v "rounds 0 "; done
timeout 100 build/ab/tropic_bench.head57 --suite bench/suites/quick.txt --data data --out /tmp/quick1 \
  > /tmp/quick1.log 2>&1; echo "quick rc $?" >> /tmp/quick1.log; cp /tmp/quick1/summary.md $OUT/call1-quick-summary.md
tail -3 /tmp/quick1.log
mkdir -p /tmp/call1
for round in 1 2 3; do
  for v in off head57 lb3 u2; do
    timeout 100 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7,kron:20:16,kron:22:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv /tmp/call1/bench-$v-$round.csv
  done
  tar -C /tmp -cJf $OUT/call1-bench.tar.xz call1
done
