#!/usr/bin/env bash
# Run 51, call 5 (one H200): split rows of the warps' merge path finished in the kernel by the
# warp that brings a row's last piece (fused: no pull_fixup launch), against b152a89 (new).
# First alone on the GPU: tune_pull_merge_shapes' default shape, new / fused twice, kron-24
# once each. Then the solvers through the bench, 92a839b (the block kernel) / b152a89 / fused
# twice, every row checked by the certificate. Then the operator tests and memcheck of the
# merge-path cases on fused.
source build-carry/setup.sh
tar -xJf build-carry/b5.tar.xz
O=$OUT; OUT=/tmp/call5; mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
graphs="data/cnr-2000.el.gz kron:20:16 data/soc-Slashdot0902.txt.gz kron:22:16"
for round in 1 2; do
  for v in new fused; do
    TROPIC_TUNE_SHORT=1 timeout 50 build/ab/tune_pull_merge_shapes.$v $graphs \
      > $OUT/call5-$v-$round.log 2>&1; echo "rc $?" >> $OUT/call5-$v-$round.log
  done
done
for v in new fused; do
  TROPIC_TUNE_SHORT=1 timeout 80 build/ab/tune_pull_merge_shapes.$v kron:24:16 \
    > $OUT/call5-$v-kron24.log 2>&1; echo "rc $?" >> $OUT/call5-$v-kron24.log
done
for f in $OUT/call5-*.log; do
  echo "== $f"; grep "^[dk]\|cusparse\|carveout  -1 ( *[0-9]* blocks/SM):\|rc " $f
done
for round in 1 2; do
  for v in 92a839b b152a89 fused; do
    b=build/bench/tropic_bench; [ $v != fused ] && b=build/ab/tropic_bench.$v
    timeout 100 $b --graphs data/soc-Slashdot0902.txt.gz,data/cnr-2000.el.gz,data/mdual.mtx.gz,kron:20:16 \
      --algorithms delta_stepping,bellman_ford,workfront --certify --no-ceilings --runs 9 \
      --out $OUT/bench-$v-$round > $OUT/call5-bench-$v-$round.log 2>&1; echo "$v $round rc $?"
  done
done
(timeout 120 build/test/tropic_tests -ts=operators > $OUT/call5-operators.log 2>&1; echo "operators rc $?" >> $OUT/call5-operators.log) &
(timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*,*at or below the floor*' > $OUT/call5-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/call5-memcheck.log) &
wait
tail -3 $OUT/call5-operators.log; tail -3 $OUT/call5-memcheck.log
cd /tmp && tar -czf $O/call5.tar.gz call5
