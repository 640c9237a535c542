#!/usr/bin/env bash
# Run 56, call 2 (one H200): head = a6844c8's kernel; new56a = head whose closures without
# successor words push their queued rows with push_row (run 54's path); new56b = new56a with a
# queued row's scalars read into registers once. The hop probe of each, twice; the bench, the
# three builds alternating, twice, every row checked by the certificate.
source build-carry/setup.sh
tar -xJf build-carry/b2.tar.xz
exec > $OUT/call2.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for round in 1 2; do
  for v in head new56a new56b; do echo "== hop $v $round"; timeout 60 build/ab/tune_delta_stepping.$v 'hop latency' | grep "paths" | grep -v "rounds 0 "; done
done
mkdir -p $OUT/call2
for round in 1 2; do
  for v in head new56a new56b; do
    timeout 100 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7,kron:20:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv $OUT/call2/bench-$v-$round.csv
  done
done
