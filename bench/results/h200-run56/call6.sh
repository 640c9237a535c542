#!/usr/bin/env bash
# Run 56, call 6 (one H200): the rest of babc67e's GPU check, side by side: memcheck of
# delta-stepping's sanitizer and local-round cases, racecheck of the sanitizer case, the quick
# benchmark (validity) and pytest with the module built here for the device's CPython 3.12 (on
# babc67e's libraries). Then the queue sweep: the same binary with arcs carried and not.
source build-carry/setup.sh
tar -xJf build-carry/b6.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call6.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
cases='*small graph for the sanitizers*,*local rounds and queue size*<unsigned int>,*local rounds: the same distances*'
(timeout 240 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=delta_stepping -tc="$cases" > $OUT/call6-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/call6-memcheck.log) &
(timeout 240 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=delta_stepping -tc='*small graph for the sanitizers*' > $OUT/call6-racecheck.log 2>&1
 echo "racecheck rc $?" >> $OUT/call6-racecheck.log) &
(timeout 240 build/bench/tropic_bench --suite bench/suites/quick.txt --data data --out /tmp/quick6 \
  > /tmp/quick6.log 2>&1; echo "quick rc $?" >> /tmp/quick6.log; cp /tmp/quick6/summary.md $OUT/call6-quick-summary.md) &
(xz -dc build-carry/_tropic.so.xz > python/tropic/_tropic.cpython-312-x86_64-linux-gnu.so
 cd python && python3 -c "import tropic; print('gpu', tropic.gpu_available(), 'cuda', tropic.cuda_build())" > $OUT/call6-pytest.log 2>&1
 TROPIC_SHARED_DATA=$PWD/../data timeout 240 python3 -m pytest -q -n 8 -p no:cacheprovider -rs tests >> $OUT/call6-pytest.log 2>&1
 echo "pytest rc $?" >> $OUT/call6-pytest.log) &
wait
tail -4 $OUT/call6-memcheck.log; tail -4 $OUT/call6-racecheck.log; tail -2 /tmp/quick6.log
head -1 $OUT/call6-pytest.log; tail -3 $OUT/call6-pytest.log
timeout 150 build/bench/tune/tune_delta_stepping 'queue sweep' > $OUT/call6-queue-sweep.txt 2>&1
echo "queue sweep rc $?"
