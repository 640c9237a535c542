#!/usr/bin/env bash
# Run 59, call 7 (one H200): pytest on the GPU with the module built here for CPython 3.12
# against c133dd0's library (the GPU-driven loop from the start on small graphs; the library
# is unchanged since).
source build-carry/setup.sh
exec > $OUT/call7.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
xz -dc build-carry/_tropic.so.xz > python/tropic/_tropic.cpython-312-x86_64-linux-gnu.so
cd python && python3 -c "import tropic; print('gpu', tropic.gpu_available(), 'cuda', tropic.cuda_build())"
TROPIC_SHARED_DATA=$PWD/../data timeout 200 python3 -m pytest -q -n 8 -p no:cacheprovider -rs tests 2>&1 | tail -8
