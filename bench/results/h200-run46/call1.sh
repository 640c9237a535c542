#!/usr/bin/env bash
# Call 1: where a 64-source batch's time goes on kron-22 (the trace build of
# delta_stepping_batch.cu: a line per step), by Δ and direction.
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cd build
T=exp/tune_batch_trace
TROPIC_BATCH_TRACE=1 $T kron:22:16 k=64 runs=1 check=4 deltas=0,inf,264,528 > $OUT/a_auto.txt 2>&1
echo "a rc $?"
TROPIC_BATCH_TRACE=1 TROPIC_BATCH_DIR=1 $T kron:22:16 k=64 runs=1 check=4 deltas=0,inf > $OUT/b_push.txt 2>&1
echo "b rc $?"
TROPIC_BATCH_TRACE=1 TROPIC_BATCH_DIR=2 $T kron:22:16 k=64 runs=1 check=4 deltas=0,inf > $OUT/c_pull.txt 2>&1
echo "c rc $?"
grep -h "k    64\|n 4" $OUT/*.txt
