#!/usr/bin/env bash
# Run 52, call 5 (one H200): the warps' merge-path starts kept with the matrix (new) against
# dbd21ff (pdl: pull_fixup launched early) and b152a89 (base). First alone on the GPU: the SpMV
# shapes tool, base / pdl / new twice. Then on new: the operator tests, memcheck of the
# merge-path cases.
source build-carry/setup.sh
tar -xJf build-carry/b5.tar.xz
O=$OUT; OUT=/tmp/call5; mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
graphs="data/cnr-2000.el.gz data/soc-Slashdot0902.txt.gz kron:20:16 data/mdual.mtx.gz data/USA-road-d.NY.gr.gz uniform:4194304:7 kron:22:16"
for round in 1 2; do
  for v in base pdl new; do
    TROPIC_TUNE_SHORT=1 timeout 60 build/ab/tune_pull_merge_shapes.$v $graphs \
      > $OUT/spmv-$v-$round.log 2>&1; echo "rc $?" >> $OUT/spmv-$v-$round.log
  done
done
for f in $OUT/spmv-*.log; do
  echo "== $f"; grep "^[dku]\|cusparse\|row-checking kernel\|warps 128 threads x  8 items.*resident\|rc " $f
done
(timeout 200 build/test/tropic_tests -ts=operators > $OUT/operators.log 2>&1; echo "operators rc $?" >> $OUT/operators.log) &
(timeout 250 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*,*at or below the floor*' > $OUT/memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/memcheck.log) &
wait
tail -3 $OUT/operators.log; tail -3 $OUT/memcheck.log
cd /tmp && tar -czf $O/call5.tar.gz call5
