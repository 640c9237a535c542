#!/usr/bin/env bash
# Run 58, call 4 (one H200, warm from call 3): pytest on the GPU with the module built here for
# the device's CPython 3.12 against the committed library (the pipelined push_row).
source build-carry/setup.sh
exec > $OUT/call4.log 2>&1
xz -dc build-carry/_tropic.so.xz > python/tropic/_tropic.cpython-312-x86_64-linux-gnu.so
cd python && python3 -c "import tropic; print('gpu', tropic.gpu_available(), 'cuda', tropic.cuda_build())"
TROPIC_SHARED_DATA=$PWD/../data timeout 300 python3 -m pytest -q -n 8 -p no:cacheprovider -rs tests 2>&1 | tail -15
