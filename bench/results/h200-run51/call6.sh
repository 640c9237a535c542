#!/usr/bin/env bash
# Run 51, call 6 (one H200): (1) the solvers on the small graphs, 6939750 (run 44's suite) /
# b152a89 twice, to tell whether soc-Slashdot's 0.90 -> 1.13 ms since run 44 is the code or
# the call; (2) ncu of the warps' merge path and of cuSPARSE's SpMV on cnr-2000.
source build-carry/setup.sh
tar -xJf build-carry/b6.tar.xz
O=$OUT; OUT=/tmp/call6; mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for round in 1 2; do
  for v in 6939750 b152a89; do
    timeout 100 build/ab/tropic_bench.$v --graphs data/soc-Slashdot0902.txt.gz,data/mdual.mtx.gz,kron:20:16 \
      --algorithms delta_stepping,bellman_ford,workfront,adds --certify --no-ceilings --runs 9 \
      --out $OUT/bench-$v-$round > $OUT/call6-bench-$v-$round.log 2>&1; echo "$v $round rc $?"
  done
done
sections="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis"
TROPIC_TUNE_SHORT=1 timeout 120 ncu --clock-control none -k regex:pull_warp_path --launch-skip 3 --launch-count 1 \
  $sections build/ab/tune_pull_merge_shapes.new data/cnr-2000.el.gz > $OUT/call6-ncu-warps-cnr.log 2>&1; echo "ncu warps rc $?"
TROPIC_TUNE_SHORT=1 timeout 120 ncu --clock-control none -k regex:"csrmv|partition" --launch-skip 6 --launch-count 2 \
  $sections build/ab/tune_pull_merge_shapes.new data/cnr-2000.el.gz > $OUT/call6-ncu-cusparse-cnr.log 2>&1; echo "ncu cusparse rc $?"
grep -h "pull_warp_path\|csrmv\|partition\|Duration\|Registers Per\|Achieved Occupancy\|Theoretical Occupancy\|Memory Throughput\|Block Size\|Grid Size" $OUT/call6-ncu-*.log | head -40
cd /tmp && tar -czf $O/call6.tar.gz call6
