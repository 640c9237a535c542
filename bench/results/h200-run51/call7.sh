#!/usr/bin/env bash
# Run 51, call 7 (one H200): the warps' merge path with the tile's row ends as a bitmask (bits:
# no per-lane search, no shared-memory read an item) against b152a89 (new). First alone on
# the GPU: tune_pull_merge_shapes' default shape, new / bits twice, kron-24 once each. Then side
# by side: the operator tests, memcheck of the merge-path cases, the GPU solver suites, and the
# quick benchmark (its validity only).
source build-carry/setup.sh
tar -xJf build-carry/b7.tar.xz
O=$OUT; OUT=/tmp/call7; mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
graphs="data/cnr-2000.el.gz kron:20:16 data/soc-Slashdot0902.txt.gz kron:22:16"
for round in 1 2; do
  for v in new bits; do
    TROPIC_TUNE_SHORT=1 timeout 50 build/ab/tune_pull_merge_shapes.$v $graphs \
      > $OUT/call7-$v-$round.log 2>&1; echo "rc $?" >> $OUT/call7-$v-$round.log
  done
done
for v in new bits; do
  TROPIC_TUNE_SHORT=1 timeout 80 build/ab/tune_pull_merge_shapes.$v kron:24:16 \
    > $OUT/call7-$v-kron24.log 2>&1; echo "rc $?" >> $OUT/call7-$v-kron24.log
done
for f in $OUT/call7-*.log; do
  echo "== $f"; grep "^[dk]\|cusparse\|carveout  -1 ( *[0-9]* blocks/SM):\|warps 128 threads x  8 items.*resident\|rc " $f
done
(timeout 150 build/test/tropic_tests -ts=operators > $OUT/call7-operators.log 2>&1; echo "operators rc $?" >> $OUT/call7-operators.log) &
(timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*,*at or below the floor*' > $OUT/call7-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/call7-memcheck.log) &
(timeout 200 build/test/tropic_tests -ts=delta_stepping,bellman_ford,workfront,many_sources_gpu \
  > $OUT/call7-solvers.log 2>&1; echo "solvers rc $?" >> $OUT/call7-solvers.log) &
(timeout 150 build/bench/tropic_bench --suite bench/suites/quick.txt --data data --out /tmp/quick \
  > $OUT/call7-quick.log 2>&1; echo "quick rc $?" >> $OUT/call7-quick.log; cp /tmp/quick/summary.md $OUT/call7-quick-summary.md) &
wait
tail -3 $OUT/call7-operators.log; tail -3 $OUT/call7-memcheck.log; tail -4 $OUT/call7-solvers.log; tail -1 $OUT/call7-quick.log
grep -c "^| .*| \([0-9]*\)/\1 |$" $OUT/call7-quick-summary.md; grep -ci "wrong" $OUT/call7-quick-summary.md
cd /tmp && tar -czf $O/call7.tar.gz call7
