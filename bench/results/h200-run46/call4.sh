#!/usr/bin/env bash
# Call 4: where a kron-22 row's time goes outside its solve (an uncommitted build printing each
# phase's wall time: TROPIC_EXP_PHASES).
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cd build
TROPIC_EXP_PHASES=1 exp/tune_phases kron:22:16 k=8 runs=1 check=8 api nobatch > $OUT/phases.txt 2>&1
echo "rc $?"
grep -v "^phase" $OUT/phases.txt
tail -60 $OUT/phases.txt
