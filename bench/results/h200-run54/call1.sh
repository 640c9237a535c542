#!/usr/bin/env bash
# Run 54, call 1 (one H200): where USA-road-NY's and grid 2048²'s solves go. The CLI's solve
# with its statistics, every kernel of one NY solve under ncu (durations only, caches and clocks
# left alone), and the tuning tool's grid anatomy (the bucket loop's cost per bucket; local
# rounds 0, 4, 16, 64).
source build-carry/setup.sh
tar -xJf build-carry/b1.tar.xz
exec > $OUT/call1.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for s in 40142 119109; do
  build/tropic sssp data/USA-road-d.NY.gr.gz -s $s -a delta_stepping -r 21 -v --quiet
done
build/tropic sssp grid:2048:2048 -s 0 -a delta_stepping -r 11 -v --quiet
timeout 120 ncu --cache-control none --clock-control none --metrics gpu__time_duration.sum \
  build/tropic sssp data/USA-road-d.NY.gr.gz -s 40142 -a delta_stepping -r 1 --quiet \
  > $OUT/ncu-ny.log 2>&1; echo "ncu rc $?"
grep -c "gpu__time_duration" $OUT/ncu-ny.log
timeout 240 build/bench/tune/tune_delta_stepping 'grid anatomy' > $OUT/anatomy.log 2>&1
echo "anatomy rc $?"
