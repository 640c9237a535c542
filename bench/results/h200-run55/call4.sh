#!/usr/bin/env bash
# Run 55, call 4 (one H200): new55d = new55c whose carried arcs hold what they offer (x ⊗ w),
# the atomic issued before the speculative loads, a lean loop. The hop probe of new54 and
# new55d; the GPU suites the change reaches and the peak-memory test; the bench, base54 /
# new55d twice, every row checked by the certificate.
source build-carry/setup.sh
tar -xJf build-carry/b4.tar.xz
exec > $OUT/call4.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for round in 1 2; do
  for v in new54 new55d; do echo "== hop $v $round"; timeout 90 build/ab/tune_delta_stepping.$v 'hop latency' | grep "paths" | grep -v "rounds 0 "; done
done
timeout 240 build/test/tropic_tests -ts=delta_stepping,operators,adds,bellman_ford_negative,rdbs,many_sources_gpu,delta_stepping_batch \
  > /tmp/suites.log 2>&1; echo "suites rc $?"; grep -E "FAILED|ERROR" /tmp/suites.log | head -20; tail -4 /tmp/suites.log
timeout 90 build/test/tropic_tests -tc="peak device memory*" -s 2>&1 | grep -E "MESSAGE|ERROR|passed|failed" | sed 's/.*MESSAGE: //' | grep -E "delta|bellman|ERROR|passed"
for round in 1 2; do
  for v in base54 new55d; do
    timeout 100 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7,kron:20:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv $OUT/bench-$v-$round.csv
  done
done
