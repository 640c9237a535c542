#!/usr/bin/env bash
# Run 54, call 5 (one H200): one block barrier a local round (three queue lengths in turn:
# onebar54), and with it no filter load in a dealt-out frontier's push (both54), against 9c25916
# (new54). The hop probe, then the bench on the graphs of short rows and on three with hubs,
# new54 / onebar54 / both54 twice, every row checked by the certificate; then both54's queue
# sweep.
source build-carry/setup.sh
tar -xJf build-carry/b5.tar.xz
exec > $OUT/call5.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for round in 1 2; do
  for v in new54 onebar54 both54; do
    echo "== hop $v $round"
    timeout 60 build/ab/tune_delta_stepping.$v 'hop latency' | grep "paths"
  done
done
for round in 1 2; do
  for v in new54 onebar54 both54; do
    timeout 100 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,grid:2048:2048,grid:4096:4096,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,kron:20:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv $OUT/bench-$v-$round.csv
  done
done
timeout 100 build/ab/tune_delta_stepping.both54 'queue sweep' > $OUT/queue-both54.log 2>&1
echo "queue sweep rc $?"
