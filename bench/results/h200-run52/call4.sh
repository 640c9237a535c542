#!/usr/bin/env bash
# Run 52, call 4 (one H200): pull_fixup launched early (programmatic dependent launch) after
# both merge-path kernels (new) against b152a89 (base). First alone on the GPU: the SpMV
# shapes tool, base / new twice. Then the solvers through the bench, base / new twice, every
# row checked by the certificate. Then side by side on new: the operator tests, memcheck and
# racecheck of the merge-path cases, the GPU solver suites, the quick benchmark (validity).
source build-carry/setup.sh
tar -xJf build-carry/b4.tar.xz
O=$OUT; OUT=/tmp/call4; mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
graphs="data/cnr-2000.el.gz data/soc-Slashdot0902.txt.gz kron:20:16 data/mdual.mtx.gz data/USA-road-d.NY.gr.gz kron:22:16"
for round in 1 2; do
  for v in base new; do
    TROPIC_TUNE_SHORT=1 timeout 60 build/ab/tune_pull_merge_shapes.$v $graphs \
      > $OUT/spmv-$v-$round.log 2>&1; echo "rc $?" >> $OUT/spmv-$v-$round.log
  done
done
for f in $OUT/spmv-*.log; do
  echo "== $f"; grep "^[dk]\|cusparse\|row-checking kernel\|warps 128 threads x  8 items.*resident\|rc " $f
done
for round in 1 2; do
  for v in base new; do
    timeout 120 build/ab/tropic_bench.$v --graphs data/soc-Slashdot0902.txt.gz,data/cnr-2000.el.gz,data/mdual.mtx.gz,kron:20:16,kron:22:16,data/USA-road-d.NY.gr.gz \
      --algorithms delta_stepping,bellman_ford,workfront --certify --no-ceilings --runs 9 \
      --out $OUT/bench-$v-$round > $OUT/bench-$v-$round.log 2>&1; echo "$v $round rc $?"
  done
done
(timeout 150 build/test/tropic_tests -ts=operators > $OUT/operators.log 2>&1; echo "operators rc $?" >> $OUT/operators.log) &
(timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*,*at or below the floor*' > $OUT/memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/memcheck.log) &
(timeout 240 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*,*at or below the floor*' > $OUT/racecheck.log 2>&1; echo "racecheck rc $?" >> $OUT/racecheck.log) &
(timeout 200 build/test/tropic_tests -ts=delta_stepping,bellman_ford,workfront,many_sources_gpu \
  > $OUT/solvers.log 2>&1; echo "solvers rc $?" >> $OUT/solvers.log) &
(timeout 150 build/bench/tropic_bench --suite bench/suites/quick.txt --data data --out /tmp/quick \
  > $OUT/quick.log 2>&1; echo "quick rc $?" >> $OUT/quick.log; cp /tmp/quick/summary.md $OUT/quick-summary.md) &
wait
tail -3 $OUT/operators.log; tail -3 $OUT/memcheck.log; tail -3 $OUT/racecheck.log; tail -4 $OUT/solvers.log; tail -1 $OUT/quick.log
grep -c "^| .*| \([0-9]*\)/\1 |$" $OUT/quick-summary.md; grep -ci "wrong" $OUT/quick-summary.md
cd /tmp && tar -czf $O/call4.tar.gz call4
