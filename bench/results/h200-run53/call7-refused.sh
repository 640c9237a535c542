#!/usr/bin/env bash
# Run 53, call 7 (one H200, the last of the session's device time): d12dddd's solver suites
# that pull plain SpMVs (bellman_ford, delta_stepping), every weight type.
source build-carry/setup.sh
tar -xJf build-carry/b6.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 100 build/test/tropic_tests -ts=bellman_ford,delta_stepping > /tmp/solvers.log 2>&1
echo "solvers rc $?" >> /tmp/solvers.log; tail -4 /tmp/solvers.log | tee $OUT/solvers-tail.log
