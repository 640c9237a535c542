#!/usr/bin/env bash
# Call 5: A/B of sssp(A, sources) and sssp_into with 64 sources, old (91b40af's library) against
# new (rows through copy_to_host, placed while the next row solves, the arc pass skipped where it
# can find nothing, finish_rows' overflow test on the device), alternating, two passes; and how
# fast this host first-touches a fresh 1 GB vector.
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cat /sys/kernel/mm/transparent_hugepage/enabled
build/exp/touch
cd build
NY=$PWD/../build-carry/USA-road-d.NY.gr.gz
for pass in 1 2; do
  for v in abold abnew; do
    echo "== pass $pass $v"
    $v/tune_batch_sources kron:22:16 kron:20:16 $NY k=64 runs=3 check=64 api nobatch 2>&1 | tee -a $OUT/$v.txt
  done
done
