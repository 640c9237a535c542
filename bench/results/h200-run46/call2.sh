#!/usr/bin/env bash
# Call 2: the single solves of many sources run T at a time on T streams (host threads), on
# graphs with hubs, where sssp(A, sources) loops over single solves.
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cd build
T=bench/tune/tune_batch_sources
$T kron:22:16 kron:20:16 k=64 runs=3 check=64 streams=1,2,3,4,8 nobatch > $OUT/streams.txt 2>&1
echo "rc $?"
cat $OUT/streams.txt
