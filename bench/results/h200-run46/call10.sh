#!/usr/bin/env bash
# Call 10: the rest of the GPU check of 97ba373 / e2e92a9: memcheck over gpu-check.sh's whole
# list, then the quick benchmark suite (each cut by a timeout: the session's device time ends).
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 150 env TROPIC_BUILD_DIR=build scripts/gpu-check.sh --prebuilt --only-sanitizer memcheck \
  > $OUT/memcheck-list.log 2>&1; echo "memcheck rc $?"; tail -8 $OUT/memcheck-list.log
cd build
timeout 60 bench/tropic_bench --suite quick --data ../data --out $OUT/bench > $OUT/bench.log 2>&1
echo "bench rc $?"; tail -25 $OUT/bench.log
