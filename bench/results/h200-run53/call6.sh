#!/usr/bin/env bash
# Run 53, call 6 (one H200): the 8-byte SpMVs at 5 items x 8 blocks (the tree): the register
# sweep's library column and the bench's fp64 ceilings; then the operator tests and memcheck of
# the merge-path cases, side by side.
source build-carry/setup.sh
tar -xJf build-carry/b6.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 60 build/bench/tune/tune_pull_warp_registers kron:22:16 kron:20:16 data/cnr-2000.el.gz \
  > $OUT/registers.log 2>&1; echo "registers rc $?" >> $OUT/registers.log
timeout 40 build/bench/tropic_bench --graphs kron:22:16,kron:20:16,data/cnr-2000.el.gz \
  --weights double --algorithms delta_stepping --sources 1 --runs 1 --certify --out /tmp/c6 \
  > /tmp/c6.log 2>&1; echo "bench rc $?" >> $OUT/registers.log
cp /tmp/c6/ceilings.csv $OUT/ceilings.csv
(timeout 100 build/test/tropic_tests -ts=operators > /tmp/operators.log 2>&1; echo "operators rc $?" >> /tmp/operators.log; tail -4 /tmp/operators.log > $OUT/operators-tail.log) &
(timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*' > /tmp/memcheck.log 2>&1; echo "memcheck rc $?" >> /tmp/memcheck.log; tail -5 /tmp/memcheck.log > $OUT/memcheck-tail.log) &
wait
cat $OUT/registers.log; grep -i "spmv" $OUT/ceilings.csv | cut -d, -f1-4; cat $OUT/operators-tail.log $OUT/memcheck-tail.log
