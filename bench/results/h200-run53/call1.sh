#!/usr/bin/env bash
# Run 53, call 1 (one H200): the warps' merge path under each register bound, by semiring and
# value type (tune_pull_warp_registers); then pull_live_rows held to 3 blocks a SM for 4-byte
# values, 2 for 8-byte (live3) against 4 and 3 (base53), in the solvers, alternating, twice.
source build-carry/setup.sh
tar -xJf build-carry/b1.tar.xz
O=$OUT; OUT=/tmp/call1; mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 200 build/bench/tune/tune_pull_warp_registers data/cnr-2000.el.gz data/soc-Slashdot0902.txt.gz \
  data/mdual.mtx.gz data/USA-road-d.NY.gr.gz kron:20:16 uniform:4194304:7 grid:2048:2048 kron:22:16 \
  > $OUT/registers.log 2>&1; echo "rc $?" >> $OUT/registers.log
cat $OUT/registers.log
for round in 1 2; do
  for v in base53 live3; do
    for wt in uint32 double; do
      timeout 100 build/ab/tropic_bench.$v --graphs kron:20:16,kron:22:16,kron:24:16,uniform:4194304:7,grid:2048:2048 \
        --algorithms delta_stepping,rdbs --weights $wt --certify --no-ceilings --runs 9 \
        --out $OUT/bench-$v-$wt-$round > $OUT/bench-$v-$wt-$round.log 2>&1; echo "$v $wt $round rc $?"
    done
  done
done
cd /tmp && tar -czf $O/call1.tar.gz call1
