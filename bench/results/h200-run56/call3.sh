#!/usr/bin/env bash
# Run 56, call 3 (one H200): call 2's builds and new56c (new56b as it lands: push_queued hands a
# row of a matrix without successor words to push_row itself, and relax_carrying assumes the
# words). The hop probe of head and new56c; the bench, the four builds alternating, four
# rounds, every row checked by the certificate.
source build-carry/setup.sh
tar -xJf build-carry/b3.tar.xz
exec > $OUT/call3.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for v in head new56c; do echo "== hop $v"; timeout 60 build/ab/tune_delta_stepping.$v 'hop latency' | grep "paths" | grep -v "rounds 0 "; done
mkdir -p $OUT/call3
for round in 1 2 3 4; do
  for v in head new56a new56b new56c; do
    timeout 120 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,grid:4096:4096,kron:20:16,kron:22:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv $OUT/call3/bench-$v-$round.csv
  done
done
