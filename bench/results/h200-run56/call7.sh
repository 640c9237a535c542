#!/usr/bin/env bash
# Run 56, call 7 (one H200): babc67e's library against the same with closure_limits::carry_arcs
# off by default (builds babc67e and off, the new default), the bench, alternating, twice, every
# row checked by the certificate.
source build-carry/setup.sh
tar -xJf build-carry/b7.tar.xz
exec > $OUT/call7.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
mkdir -p /tmp/c7
for round in 1 2; do
  for v in babc67e off; do
    timeout 100 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7,kron:20:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv /tmp/c7/bench-$v-$round.csv
  done
done
tar -cJf $OUT/call7-csv.tar.xz -C /tmp c7
