#!/usr/bin/env bash
# Run 50, call 9 (one H200): the merge path by warps in the library (the plain SpMV's kernel).
# First alone on the GPU: tune_pull_merge_shapes' default shape, 92a839b (base: the lean block
# kernel) / new / base / new. Then side by side: the operator tests, memcheck over the
# merge-path cases, and the quick benchmark (its validity only: it shares the GPU).
source build-carry/setup.sh
tar -xJf build-carry/tune.tar.xz -C build-carry
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
graphs="data/cnr-2000.el.gz kron:20:16 data/soc-Slashdot0902.txt.gz kron:22:16"
for round in 1 2; do
  for v in base new; do
    TROPIC_TUNE_SHORT=1 timeout 50 build-carry/tune_pull_merge_shapes.$v $graphs \
      > $OUT/call9-$v-$round.log 2>&1; echo "rc $?" >> $OUT/call9-$v-$round.log
  done
done
for f in $OUT/call9-*-?.log; do echo "== $f"; grep "^[dk]\|cusparse\|resident blocks\|rc " $f | grep -v "row-checking"; done
(timeout 120 build/test/tropic_tests -ts=operators > $OUT/call9-operators.log 2>&1; echo "operators rc $?" >> $OUT/call9-operators.log) &
(timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*,*at or below the floor*' > $OUT/call9-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/call9-memcheck.log) &
(timeout 150 build/bench/tropic_bench --suite bench/suites/quick.txt --data data --out /tmp/quick \
  > $OUT/call9-quick.log 2>&1; echo "quick rc $?" >> $OUT/call9-quick.log; cp /tmp/quick/summary.md $OUT/call9-quick-summary.md) &
wait
tail -4 $OUT/call9-operators.log; tail -4 $OUT/call9-memcheck.log; tail -2 $OUT/call9-quick.log
grep -c "^| .*| \([0-9]*\)/\1 |$" $OUT/call9-quick-summary.md; grep -ci "wrong" $OUT/call9-quick-summary.md
