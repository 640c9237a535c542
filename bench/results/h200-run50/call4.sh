#!/usr/bin/env bash
# Run 50, call 4 (one H200): the lean merge path with its columns loaded beside the row ends
# (new) against 92a839b's (base), tune_pull_merge_shapes in its short form, base / new / base /
# new on the graphs under issue 35's 0.9x and beside them; then the operator tests of the new
# build, and memcheck / racecheck over the merge-path cases.
source build-carry/setup.sh
tar -xJf build-carry/tune.tar.xz -C build-carry
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
graphs="data/cnr-2000.el.gz kron:20:16 data/soc-Slashdot0902.txt.gz kron:22:16"
for round in 1 2; do
  for v in base new; do
    TROPIC_TUNE_SHORT=1 timeout 100 build-carry/tune_pull_merge_shapes.$v $graphs \
      > $OUT/call4-$v-$round.log 2>&1; echo "rc $?" >> $OUT/call4-$v-$round.log
  done
done
for f in $OUT/call4-*-?.log; do echo "== $f"; grep -v "carveout\|tiles/block" $f; done
timeout 100 build/test/tropic_tests -ts=operators > $OUT/call4-operators.log 2>&1
echo "operators rc $?"; tail -3 $OUT/call4-operators.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*' > $OUT/call4-memcheck.log 2>&1; echo "memcheck rc $?"
tail -3 $OUT/call4-memcheck.log
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*' > $OUT/call4-racecheck.log 2>&1; echo "racecheck rc $?"
tail -3 $OUT/call4-racecheck.log
