#!/usr/bin/env bash
# Run 53, call 5 (one H200): the 8-byte SpMVs under shorter tiles at more blocks
# (TROPIC_TUNE_SHAPES_8B), then the bench's fp64 ceilings on the same graphs (b4's bench).
source build-carry/setup.sh
tar -xJf build-carry/b4.tar.xz
tar -xJf build-carry/b5.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
TROPIC_TUNE_SHAPES_8B=1 timeout 120 build/bench/tune/tune_pull_warp_registers kron:22:16 kron:20:16 \
  data/cnr-2000.el.gz uniform:4194304:7 data/soc-Slashdot0902.txt.gz > $OUT/shapes.log 2>&1
echo "shapes rc $?" >> $OUT/shapes.log
timeout 90 build/bench/tropic_bench --graphs kron:22:16,kron:20:16,data/cnr-2000.el.gz \
  --weights double --algorithms delta_stepping --sources 1 --runs 1 --certify --out /tmp/c5 \
  > /tmp/c5.log 2>&1; echo "bench rc $?" >> $OUT/shapes.log
cp /tmp/c5/ceilings.csv $OUT/ceilings.csv
cat $OUT/shapes.log; grep -i "spmv" $OUT/ceilings.csv | cut -d, -f1-4
