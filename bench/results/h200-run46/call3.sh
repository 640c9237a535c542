#!/usr/bin/env bash
# Call 3: A/B of the wall time of sssp(A, sources) with 64 sources: old (887464e: 91b40af's library) against
# new (rows downloaded through copy_to_host; the loop's rows placed while the next one solves;
# finish_rows' overflow test on the device for all rows), alternating, two passes.
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cd build
NY=$PWD/../build-carry/USA-road-d.NY.gr.gz
for pass in 1 2; do
  for v in abold abnew; do
    echo "== pass $pass $v"
    $v/tune_batch_sources kron:22:16 kron:20:16 $NY k=64 runs=3 check=64 api nobatch 2>&1 | tee -a $OUT/$v.txt
  done
done
