#!/usr/bin/env bash
# Run 58, call 3 (one H200): the GPU check of the pipelined push_row (the committed build, "new"):
# tropic_tests' suites that reach push_row (the device-driven loops, ADDS, the operators'
# vxm_closure, many sources, edge_wise, the distributed solver on one GPU), memcheck and
# racecheck of the sanitizer cases of delta_stepping and adds; then adds and delta_stepping
# timed, new against HEAD 16fb9d9's library (head57), alternating, two rounds, every row
# certified.
source build-carry/setup.sh
tar -xJf build-carry/b7.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call3.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
(timeout 300 build/test/tropic_tests -ts=delta_stepping,adds,operators,many_sources_gpu,edge_wise,distributed,certify_gpu,automatic_rule \
  > /tmp/tests.log 2>&1; echo "tests rc $?" >> /tmp/tests.log) &
cases='*small graph for the sanitizers*,*local rounds and queue size*<unsigned int>,*local rounds: the same distances*'
(timeout 240 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=delta_stepping,adds -tc="$cases" > /tmp/memcheck.log 2>&1; echo "memcheck rc $?" >> /tmp/memcheck.log) &
(timeout 240 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=delta_stepping,adds -tc='*small graph for the sanitizers*' > /tmp/racecheck.log 2>&1
 echo "racecheck rc $?" >> /tmp/racecheck.log) &
wait
cp /tmp/tests.log /tmp/memcheck.log /tmp/racecheck.log $OUT/
tail -5 /tmp/tests.log; tail -4 /tmp/memcheck.log; tail -4 /tmp/racecheck.log
cp build/bench/tropic_bench build/ab/tropic_bench.new
mkdir -p /tmp/call3
for round in 1 2; do
  for v in head57 new; do
    timeout 100 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7,kron:20:16,kron:22:16 \
      --algorithms delta_stepping,adds --certify --no-ceilings --runs 7 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv /tmp/call3/bench-$v-$round.csv
  done
  tar -C /tmp -cJf $OUT/call3-bench.tar.xz call3
done
