#!/usr/bin/env bash
# Call 7: the A/B of call 5 again with resize_fresh in the new library (old: 91b40af's), and
# memcheck over the cases this run's changes reach.
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cd build
NY=$PWD/../build-carry/USA-road-d.NY.gr.gz
ab() {
  for v in abold/tune_batch_sources bench/tune/tune_batch_sources; do
    echo "== pass $1 $v"
    $v kron:22:16 kron:20:16 $NY k=64 runs=3 check=64 api nobatch 2>&1 | tee -a $OUT/ab.log
  done
}
ab 1
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 \
  test/tropic_tests -ts=many_sources_gpu,delta_stepping_batch,near_far_blocks,host_copy,delta_stepping \
  -tc='*overflow*,*small graph for the sanitizers*,*bad input*,copy_to_host*,*sums beyond*' \
  > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -6 $OUT/memcheck.log
ab 2
