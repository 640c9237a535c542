#!/usr/bin/env bash
# Run 50, call 7 and 8 (one H200): a prototype merge-path SpMV by warps with a shuffle-only segmented
# scan (bench/tune/pull_warp_segments.cu) against the library's lean merge path and cuSPARSE.
N=${N:-7}
source build-carry/setup.sh
tar -xJf build-carry/tune.tar.xz -C build-carry
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 200 build-carry/tune_pull_warp_segments data/cnr-2000.el.gz kron:20:16 \
  data/soc-Slashdot0902.txt.gz kron:22:16 kron:24:16 > $OUT/call$N-warp-segments.log 2>&1
echo "rc $?" >> $OUT/call$N-warp-segments.log
cat $OUT/call$N-warp-segments.log
