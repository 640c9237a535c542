#!/usr/bin/env bash
# Run 55, call 5 (one H200): new55e = new55c (one loop for carried and loaded arcs) with the
# carried arcs' offers and the atomic issued first (new55d's parts that keep the warp together).
# The hop probe of new54 and new55e; the bench, base54 / new55c / new55e twice, every row
# checked by the certificate.
source build-carry/setup.sh
tar -xJf build-carry/b5.tar.xz
exec > $OUT/call5.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for v in new54 new55e; do echo "== hop $v"; timeout 90 build/ab/tune_delta_stepping.$v 'hop latency' | grep "paths" | grep -v "rounds 0 "; done
for round in 1 2; do
  for v in base54 new55c new55e; do
    timeout 100 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7,kron:20:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv $OUT/bench-$v-$round.csv
  done
done
