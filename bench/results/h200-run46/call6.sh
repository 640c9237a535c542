#!/usr/bin/env bash
# Call 6: the GPU check of this run's library changes: every ctest test, in two stripes.
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cd build
ctest -I 1,,2 -j10 --timeout 300 > $OUT/ctestA.log 2>&1; echo "stripe A rc $?"
tail -25 $OUT/ctestA.log
ctest -I 2,,2 -j10 --timeout 300 > $OUT/ctestB.log 2>&1; echo "stripe B rc $?"
tail -25 $OUT/ctestB.log
