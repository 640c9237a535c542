#!/usr/bin/env bash
# Run 50, call 5 (one H200): the merge path with its look-back (new: a block finishes the row
# open at its start from its predecessors' published carries, no pull_fixup kernel) against
# 92a839b's (base), tune_pull_merge_shapes in its short form, base / new / base / new; then the
# operator tests of the new build and memcheck over the merge-path cases.
source build-carry/setup.sh
tar -xJf build-carry/tune.tar.xz -C build-carry
O=$OUT; OUT=/tmp/call5; mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
graphs="data/cnr-2000.el.gz kron:20:16 data/soc-Slashdot0902.txt.gz kron:22:16"
for round in 1 2; do
  for v in base new; do
    TROPIC_TUNE_SHORT=1 timeout 60 build-carry/tune_pull_merge_shapes.$v $graphs \
      > $OUT/call5-$v-$round.log 2>&1; echo "rc $?" >> $OUT/call5-$v-$round.log
  done
done
for f in $OUT/call5-*-?.log; do echo "== $f"; grep "^[dk]\|cusparse\|resident blocks\|row-checking kernel\|rc " $f; done
timeout 100 build/test/tropic_tests -ts=operators > $OUT/call5-operators.log 2>&1
echo "operators rc $?"; tail -3 $OUT/call5-operators.log
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*,*at or below the floor*' > $OUT/call5-memcheck.log 2>&1; echo "memcheck rc $?"
tail -3 $OUT/call5-memcheck.log
# delta_stepping and bellman_ford through the bench, the build before the look-back (prev: the
# column-overlap build of call 4, whose merge path and fixup are 92a839b's but for the lean
# kernel's column loads) against the new one, prev / new / prev / new.
tar -xJf build-carry/prevbench.tar.xz -C build-carry
for round in 1 2; do
  for v in prev new; do
    b=build/bench/tropic_bench; [ $v = prev ] && b=build-carry/tropic_bench.prev
    timeout 90 $b --graphs kron:20:16,kron:22:16,data/cnr-2000.el.gz \
      --algorithms delta_stepping,bellman_ford --sources 2 --c-api-sources 0 --no-ceilings \
      --out $OUT/bench-$v-$round > $OUT/call5-bench-$v-$round.log 2>&1; echo "rc $?" >> $OUT/call5-bench-$v-$round.log
    grep "^| kron\|^| cnr\|^| [a-z_]* |" $OUT/bench-$v-$round/summary.md | head -12 > $OUT/call5-bench-$v-$round.md
  done
done
for f in $OUT/call5-bench-*.md; do echo "== $f"; cat $f; done
cd /tmp && tar -czf $O/call5.tar.gz call5
