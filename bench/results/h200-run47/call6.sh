#!/usr/bin/env bash
# Run 47, call 6: pytest on the GPU. pycarry/ (git-ignored) held the Python module built here
# for the device's CPython 3.12 from 8941ece's static libraries (the recipe of
# bench/results/h200-run43/build-module-py312.sh), xz-compressed, and build-carry's gb.tar.xz.
mkdir -p /tmp/gb && tar -xJf pycarry/gb.tar.xz -C /tmp/gb && export LD_LIBRARY_PATH=/tmp/gb:$LD_LIBRARY_PATH
xz -dc pycarry/_tropic.so.xz > python/tropic/_tropic.cpython-312-x86_64-linux-gnu.so
cd python && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import tropic; print('gpu', tropic.gpu_available(), 'cuda', tropic.cuda_build())"
TROPIC_SHARED_DATA=$PWD/../data PYTHONUNBUFFERED=1 python3 -m pytest -q -n 8 -p no:cacheprovider -rs tests 2>&1 | tee $OUT/pytest-gpu.log | tail -15
