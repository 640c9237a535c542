#!/usr/bin/env bash
# Run 55, call 7 (2 x H200): the several-GPU cases that skip on one GPU, on the carried-arcs
# build of call 6.
source build-carry/setup.sh
tar -xJf build-carry/b6.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call7.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 170 build/test/tropic_tests -tc="every GPU of the machine*,several GPUs*" ; echo "multi rc $?"
