#!/usr/bin/env bash
# Call 9 (2 x H200): the multi-GPU ctest cases, whose rank 0 now downloads through copy_to_host.
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export NCCL_NVLS_ENABLE=0
cd build
timeout 330 ctest -R "GPU of the machine|several GPUs|distributed" -j2 --timeout 300 > $OUT/ctest-multi.log 2>&1
echo "rc $?"; tail -30 $OUT/ctest-multi.log
