#!/usr/bin/env bash
# Run 59, call 4 (one H200): who should drive delta-stepping's loop on graphs of 0.9M-31M arcs
# (call 3: the GPU-driven loop from the start was faster than the automatic choice on cnr-2000,
# soc-Slashdot and mdual, slower on kron-20 and uniform-4M): the CLI's --loop auto and device,
# 9 solves each, three sources a graph, every answer verified against Dijkstra. Then
# racecheck of near_far_blocks on its random graphs (call 2's hubs case ran out of time), and
# pytest on the GPU with the module built here for CPython 3.12 against HEAD's library.
source build-carry/setup.sh
tar -xJf build-carry/b12.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call4.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for g in data/soc-Slashdot0902.txt.gz:74850,26706,76090 data/mdual.mtx.gz:69448,77666,124616 \
         data/cnr-2000.el.gz:245600,130697,306636 kron:16:16:1,1000,12345 kron:17:16:1,1000,12345 \
         kron:18:16:1,1000,12345 kron:19:16:1000,100003 uniform:262144:7:1,1000,12345 \
         uniform:1048576:7:1,1000,12345 uniform:2097152:7:1,1000,12345 kron:20:16:417354,995846; do
  spec=${g%:*}; sources=${g##*:}
  for src in ${sources//,/ }; do
    for run in "delta_stepping --loop auto" "delta_stepping --loop device"; do
      echo "== $spec $src $run"
      timeout 60 build/tropic sssp $spec --source $src -a $run -v -r 9 --quiet --verify | head -2
    done
  done
done
echo "== racecheck near_far_blocks"
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 \
  build/test/tropic_tests -ts=near_far_blocks -tc='*every row equals*<unsigned int>' 2>&1 | tail -4
echo "racecheck rc ${PIPESTATUS[0]}"
xz -dc build-carry/_tropic.so.xz > python/tropic/_tropic.cpython-312-x86_64-linux-gnu.so
cd python && python3 -c "import tropic; print('gpu', tropic.gpu_available(), 'cuda', tropic.cuda_build())"
TROPIC_SHARED_DATA=$PWD/../data timeout 200 python3 -m pytest -q -n 8 -p no:cacheprovider -rs tests 2>&1 | tail -8
