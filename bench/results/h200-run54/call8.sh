#!/usr/bin/env bash
# Run 54, call 8 (one H200): what call 7 ran past its limits: racecheck of delta-stepping's
# sanitizer case alone (call 7 also gave it the local-round cases, too slow under racecheck),
# beside the quick benchmark (validity).
source build-carry/setup.sh
tar -xJf build-carry/b7.tar.xz
exec > $OUT/call8.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
(timeout 170 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=delta_stepping -tc='*small graph for the sanitizers*' > $OUT/racecheck.log 2>&1
 echo "racecheck rc $?" >> $OUT/racecheck.log) &
(timeout 175 build/bench/tropic_bench --suite bench/suites/quick.txt --data data --out /tmp/quick \
  > /tmp/quick.log 2>&1; echo "quick rc $?" >> /tmp/quick.log; cp /tmp/quick/summary.md $OUT/quick-summary.md) &
wait
tail -5 $OUT/racecheck.log; tail -2 /tmp/quick.log
grep -c "^| .*| \([0-9]*\)/\1 |$" $OUT/quick-summary.md; grep -ci "wrong" $OUT/quick-summary.md
