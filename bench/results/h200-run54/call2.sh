#!/usr/bin/env bash
# Run 54, call 2 (one H200): the closure's queue capacity x local rounds x lanes x blocks per SM
# on the graphs of short rows (tune_delta_stepping 'queue sweep').
source build-carry/setup.sh
tar -xJf build-carry/b2.tar.xz
exec > $OUT/call2.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 400 build/bench/tune/tune_delta_stepping 'queue sweep' > $OUT/queue.log 2>&1
echo "queue sweep rc $?"
