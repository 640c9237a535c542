#!/usr/bin/env bash
# Run 54, call 9 (one H200): ADDS's local rounds with the lane's first arc asked of L1 before the
# group's shuffle (adds54) against 6dbedf9 (final54): adds through the bench, final54 / adds54
# twice, every row certified; then the ADDS suite and memcheck of its sanitizer case on adds54.
source build-carry/setup.sh
tar -xJf build-carry/b9.tar.xz
exec > $OUT/call9.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for round in 1 2; do
  for v in final54 adds54; do
    timeout 45 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,kron:20:16 \
      --algorithms adds --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv $OUT/bench-$v-$round.csv
  done
done
(timeout 80 build/test/tropic_tests -ts=adds > /tmp/adds.log 2>&1; echo "adds rc $?" >> /tmp/adds.log) &
(timeout 80 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=adds -tc='*small graph for the sanitizers*' > /tmp/memcheck.log 2>&1; echo "memcheck rc $?" >> /tmp/memcheck.log) &
wait
tail -4 /tmp/adds.log; tail -3 /tmp/memcheck.log
