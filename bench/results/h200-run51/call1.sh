#!/usr/bin/env bash
# Run 51, call 1 (one H200): the plain SpMV's arc count. First alone on the GPU:
# tune_pull_merge_shapes' default shape (TROPIC_TUNE_SHORT) for 92a839b (base: the block
# kernel), e29ed7a (head: the warps' kernel, an atomic a warp on the arcs-scanned word) and the
# new code (new: warp 0 counts the whole matrix's arcs; the searches shared with the block
# kernel), base / head / new twice; kron-24 head / new once. Then side by side: the operator
# tests, memcheck over the merge-path cases, and the quick benchmark (its validity only).
source build-carry/setup.sh
tar -xJf build-carry/tune.tar.xz -C build-carry
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
graphs="data/cnr-2000.el.gz kron:20:16 data/soc-Slashdot0902.txt.gz kron:22:16"
for round in 1 2; do
  for v in base head new; do
    TROPIC_TUNE_SHORT=1 timeout 50 build-carry/tune_pull_merge_shapes.$v $graphs \
      > $OUT/call1-$v-$round.log 2>&1; echo "rc $?" >> $OUT/call1-$v-$round.log
  done
done
for v in head new; do
  TROPIC_TUNE_SHORT=1 timeout 80 build-carry/tune_pull_merge_shapes.$v kron:24:16 \
    > $OUT/call1-$v-kron24.log 2>&1; echo "rc $?" >> $OUT/call1-$v-kron24.log
done
for f in $OUT/call1-*.log; do
  echo "== $f"; grep "^[dk]\|cusparse\|carveout  -1 ( *[0-9]* blocks/SM):\|resident blocks\|rc " $f | grep -v row-checking
done
(timeout 120 build/test/tropic_tests -ts=operators > $OUT/call1-operators.log 2>&1; echo "operators rc $?" >> $OUT/call1-operators.log) &
(timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*,*at or below the floor*' > $OUT/call1-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/call1-memcheck.log) &
(timeout 150 build/bench/tropic_bench --suite bench/suites/quick.txt --data data --out /tmp/quick \
  > $OUT/call1-quick.log 2>&1; echo "quick rc $?" >> $OUT/call1-quick.log; cp /tmp/quick/summary.md $OUT/call1-quick-summary.md) &
wait
tail -4 $OUT/call1-operators.log; tail -4 $OUT/call1-memcheck.log; tail -2 $OUT/call1-quick.log
grep -c "^| .*| \([0-9]*\)/\1 |$" $OUT/call1-quick-summary.md; grep -ci "wrong" $OUT/call1-quick-summary.md
cd $OUT && tar -czf call1-logs.tgz call1-*.log && rm -f call1-*-?.log call1-*-kron24.log
