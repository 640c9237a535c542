#!/usr/bin/env bash
# Run 54, call 7 (one H200): the rest of 6dbedf9's GPU check. The hop probe alone first; then side
# by side: memcheck and racecheck of delta-stepping's sanitizer and local-round cases, the quick
# benchmark (validity), and pytest with the module built here for the device's CPython 3.12.
source build-carry/setup.sh
tar -xJf build-carry/b7.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call7.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 40 build/bench/tune/tune_delta_stepping 'hop latency' | grep paths
cases='*small graph for the sanitizers*,*local rounds and queue size*<unsigned int>,*local rounds: the same distances*'
(timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=delta_stepping -tc="$cases" > /tmp/memcheck.log 2>&1; echo "memcheck rc $?" >> /tmp/memcheck.log) &
(timeout 200 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=delta_stepping -tc="$cases" > /tmp/racecheck.log 2>&1; echo "racecheck rc $?" >> /tmp/racecheck.log) &
(timeout 200 build/bench/tropic_bench --suite bench/suites/quick.txt --data data --out /tmp/quick \
  > /tmp/quick.log 2>&1; echo "quick rc $?" >> /tmp/quick.log; cp /tmp/quick/summary.md $OUT/quick-summary.md) &
(xz -dc pycarry/_tropic.so.xz > python/tropic/_tropic.cpython-312-x86_64-linux-gnu.so
 cd python && python3 -c "import tropic; print('gpu', tropic.gpu_available(), 'cuda', tropic.cuda_build())" > /tmp/pytest.log 2>&1
 TROPIC_SHARED_DATA=$PWD/../data timeout 200 python3 -m pytest -q -n 8 -p no:cacheprovider -rs tests >> /tmp/pytest.log 2>&1
 echo "pytest rc $?" >> /tmp/pytest.log) &
wait
tail -4 /tmp/memcheck.log; tail -4 /tmp/racecheck.log; tail -2 /tmp/quick.log
head -1 /tmp/pytest.log; tail -12 /tmp/pytest.log
grep -c "^| .*| \([0-9]*\)/\1 |$" $OUT/quick-summary.md; grep -ci "wrong" $OUT/quick-summary.md
