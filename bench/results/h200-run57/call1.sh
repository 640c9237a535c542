#!/usr/bin/env bash
# Run 57, call 1 (one H200): carried arcs removed and the queue back to 512 rows of closure_item
# ("new") against HEAD 29e30cb's library ("off": carried arcs built but off by default). The hop
# probe of both; the bench, the two builds alternating, three rounds, every row certified; the
# new queue sweep (64, 192 and 512 rows); then memcheck and racecheck of the new test binary's
# delta-stepping cases and the quick benchmark's validity.
source build-carry/setup.sh
tar -xJf build-carry/b1.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call1.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for v in new56c new; do echo "== hop $v"; timeout 60 build/ab/tune_delta_stepping.$v 'hop latency' | grep "paths" | grep -v "rounds 0 "; done
mkdir -p /tmp/call1
for round in 1 2 3; do
  for v in off new; do
    timeout 120 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7,kron:20:16,kron:22:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv /tmp/call1/bench-$v-$round.csv
  done
done
tar -C /tmp -cJf $OUT/call1-bench.tar.xz call1
timeout 130 build/ab/tune_delta_stepping.new 'queue sweep' > $OUT/call1-queue-sweep.txt 2>&1
echo "queue sweep rc $?"
cases='*small graph for the sanitizers*,*local rounds and queue size*<unsigned int>,*local rounds: the same distances*'
(timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=delta_stepping -tc="$cases" > $OUT/call1-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/call1-memcheck.log) &
(timeout 200 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=delta_stepping -tc='*small graph for the sanitizers*' > $OUT/call1-racecheck.log 2>&1
 echo "racecheck rc $?" >> $OUT/call1-racecheck.log) &
(timeout 200 build/bench/tropic_bench --suite bench/suites/quick.txt --data data --out /tmp/quick1 \
  > /tmp/quick1.log 2>&1; echo "quick rc $?" >> /tmp/quick1.log; cp /tmp/quick1/summary.md $OUT/call1-quick-summary.md) &
wait
tail -4 $OUT/call1-memcheck.log; tail -4 $OUT/call1-racecheck.log; tail -2 /tmp/quick1.log
