#!/usr/bin/env bash
# Run 59, call 6 (one H200): c133dd0 (the GPU-driven loop from the start on small graphs) with
# the peak-memory case that now also runs delta-stepping's host loop: every case of
# test_gpu_robustness.cu (allocation failures, eight host threads at once, peak memory) and the
# C API's suite, whose small graphs under the automatic loop now run the GPU-driven loop.
source build-carry/setup.sh
tar -xJf build-carry/b14.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call6.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
export TROPIC_SHARED_DATA=$PWD/data
timeout 200 build/test/tropic_tests -sf='*test_gpu_robustness*' 2>&1 | grep -v "^$" | tail -30
timeout 100 build/test/tropic_tests -ts=c_api 2>&1 | tail -3
