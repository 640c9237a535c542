#!/usr/bin/env bash
# Call 8: racecheck over the many-source paths' suites (the sanitizer cases of gpu-check.sh).
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cd build
timeout 400 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 \
  test/tropic_tests -ts=delta_stepping_batch,near_far_blocks,host_copy,many_sources_gpu \
  -tc='*small graph for the sanitizers*,*overflow*,*bad input*,copy_to_host*,*sums beyond*,*more sources than blocks*,*a source out of range*' \
  > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -8 $OUT/racecheck.log
