#!/usr/bin/env bash
# Run 56, call 1 (one H200): the rest of the landed kernel's GPU check (a6844c8's build): the hop
# probe's light closure under ncu's source counters (a single path's local rounds, arcs carried
# and not), then side by side: memcheck and racecheck of delta-stepping's sanitizer case
# (memcheck also the local-round cases), the quick benchmark (validity) and pytest with the
# module built here for the device's CPython 3.12.
source build-carry/setup.sh
tar -xJf build-carry/b1.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call1.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
# The probe's first configuration (one path, local rounds until the queue runs dry) solves six
# times with carry 0, then six with carry 1: launches 2 and 8 of bucket_loop.
for skip in 2 8; do
  timeout 120 ncu --section SourceCounters --section WarpStateStats -k regex:bucket_loop \
    --launch-skip $skip --launch-count 1 -o /tmp/hop$skip \
    build/bench/tune/tune_delta_stepping 'hop latency' > /tmp/ncu$skip.log 2>&1
  echo "ncu $skip rc $?"; grep "paths of 2000" /tmp/ncu$skip.log | head -3
  ncu --import /tmp/hop$skip.ncu-rep --page source --csv --print-source sass \
    > /tmp/hop$skip-source.csv 2>&1; echo "source rc $?"
  ncu --import /tmp/hop$skip.ncu-rep --page details > /tmp/hop$skip-details.txt 2>&1
done
tar -cJf $OUT/ncu-hop.tar.xz -C /tmp hop2-source.csv hop8-source.csv hop2-details.txt hop8-details.txt
cases='*small graph for the sanitizers*,*local rounds and queue size*<unsigned int>,*local rounds: the same distances*'
(timeout 300 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=delta_stepping -tc="$cases" > /tmp/memcheck.log 2>&1; echo "memcheck rc $?" >> /tmp/memcheck.log) &
(timeout 300 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=delta_stepping -tc='*small graph for the sanitizers*' > /tmp/racecheck.log 2>&1
 echo "racecheck rc $?" >> /tmp/racecheck.log) &
(timeout 300 build/bench/tropic_bench --suite bench/suites/quick.txt --data data --out /tmp/quick \
  > /tmp/quick.log 2>&1; echo "quick rc $?" >> /tmp/quick.log; cp /tmp/quick/summary.md $OUT/quick-summary.md) &
(xz -dc build-carry/_tropic.so.xz > python/tropic/_tropic.cpython-312-x86_64-linux-gnu.so
 cd python && python3 -c "import tropic; print('gpu', tropic.gpu_available(), 'cuda', tropic.cuda_build())" > /tmp/pytest.log 2>&1
 TROPIC_SHARED_DATA=$PWD/../data timeout 300 python3 -m pytest -q -n 8 -p no:cacheprovider -rs tests >> /tmp/pytest.log 2>&1
 echo "pytest rc $?" >> /tmp/pytest.log) &
wait
cp /tmp/memcheck.log /tmp/racecheck.log /tmp/pytest.log $OUT/
tail -4 /tmp/memcheck.log; tail -4 /tmp/racecheck.log; tail -2 /tmp/quick.log
head -1 /tmp/pytest.log; tail -12 /tmp/pytest.log
