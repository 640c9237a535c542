#!/usr/bin/env bash
# Run 55, call 3 (one H200): new55c = new55b whose superseded-row test loads the vertex's value
# with a plain load (LDG.E), not a relaxed device-scope one (LD.E.STRONG.GPU). A hop's parts
# with a load and an atomic in flight together; the hop probe of new54, new55b, new55c; the
# bench's graphs of short rows, new55b / new55c twice.
source build-carry/setup.sh
tar -xJf build-carry/b3.tar.xz
exec > $OUT/call3.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 60 build/ab/tune_delta_stepping.new55c 'round trips'
for round in 1 2; do
  for v in new54 new55b new55c; do echo "== hop $v $round"; timeout 90 build/ab/tune_delta_stepping.$v 'hop latency' | grep "paths" | grep -v "rounds 0 "; done
done
for round in 1 2; do
  for v in new55b new55c; do
    timeout 100 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,grid:2048:2048,grid:4096:4096 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv $OUT/bench-$v-$round.csv
  done
done
