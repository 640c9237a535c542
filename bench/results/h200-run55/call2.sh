#!/usr/bin/env bash
# Run 55, call 2 (one H200): new55b = new55 + a superseded carried row holds nothing + no
# carried arcs after a hand-over. What a hop's parts cost alone and a local round's skeleton;
# the hop probe of 9c25916 (new54) and new55b; the peak-memory test; the GPU suites the change
# reaches; the queue sweep with arcs carried or not; the bench, base54 / new55b twice.
source build-carry/setup.sh
tar -xJf build-carry/b2.tar.xz
exec > $OUT/call2.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 60 build/ab/tune_delta_stepping.new55b 'round trips'
for v in new54 new55b; do echo "== hop $v"; timeout 90 build/ab/tune_delta_stepping.$v 'hop latency' | grep "paths"; done
timeout 90 build/test/tropic_tests -tc="peak device memory*" -s 2>&1 | grep -E "MESSAGE|ERROR|passed|failed" | sed 's/.*MESSAGE: //' | head -40
timeout 240 build/test/tropic_tests -ts=delta_stepping,operators,adds,bellman_ford_negative,rdbs,many_sources_gpu,delta_stepping_batch \
  > /tmp/suites.log 2>&1; echo "suites rc $?"; grep -E "FAILED|ERROR" /tmp/suites.log | head -20; tail -4 /tmp/suites.log
timeout 150 build/ab/tune_delta_stepping.new55b 'queue sweep' > $OUT/queue-sweep.txt 2>&1; echo "queue sweep rc $?"
for round in 1 2; do
  for v in base54 new55b; do
    timeout 100 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7,kron:20:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv $OUT/bench-$v-$round.csv
  done
done
