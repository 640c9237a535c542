#!/usr/bin/env bash
# Run 55, call 1 (one H200): a queued row carries its first arcs (new) against HEAD's library
# (base54 = 6dbedf9's). What a hop's parts cost alone; the hop probe with arcs carried or not;
# the GPU suites the change reaches; the bench on the graphs of short rows and two others,
# base / new twice, every row checked by the certificate.
source build-carry/setup.sh
tar -xJf build-carry/b1.tar.xz
exec > $OUT/call1.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 60 build/ab/tune_delta_stepping.new55 'round trips'
timeout 90 build/ab/tune_delta_stepping.new55 'hop latency' | grep "paths"
timeout 60 build/test/tropic_tests -tc="peak device memory*" -s 2>&1 | grep -E "peak|passed|failed" | head -40
timeout 200 build/test/tropic_tests -ts=delta_stepping,operators,adds \
  > /tmp/suites.log 2>&1; echo "suites rc $?"; grep -E "FAILED|ERROR" /tmp/suites.log | head -20; tail -4 /tmp/suites.log
for round in 1 2; do
  for v in base54 new55; do
    timeout 120 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7,kron:20:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv $OUT/bench-$v-$round.csv
  done
done
