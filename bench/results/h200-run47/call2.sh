#!/usr/bin/env bash
# Run 47, call 2: the refit automatic rule (5c1a83e) on graphs neither fit saw: other parameters
# and seeds of the held-out generators, and Kronecker / uniform graphs of seed 31.
source build-carry/setup.sh
export OMP_NUM_THREADS=16
G=/tmp/ho
python3 bench/held_out_graphs.py $G \
  chunglu:786432:8:2.4:7 chunglu:393216:10:2.3:8 chunglu:131072:24:2.2:9 \
  rmat:19:12:0.5:0.2:0.2:7 rmat:20:4:0.57:0.19:0.19:8 rmat:18:24:0.57:0.19:0.19:9 \
  ws:524288:8:0.05:7 ws:2097152:4:0.2:8 rgg:524288:6:7 \
  mesh3d:96:96:96:7 mesh3d:48:48:48:8 2>&1 | tee $OUT/gen.log
files=$(ls $G/*.tgr | paste -sd,)
gens=kron:18:8,kron:19:4,kron:20:4,uniform:786432:6,uniform:2097152:2
for f in $G/*.tgr ${gens//,/ }; do
  echo "$(basename $f) $(build/tropic info $f --seed 31 | grep -E '^(vertices|arcs|degree|probe)' | awk '{print $2, $3, $4, $5}' | paste -sd' ') $(build/tropic sssp $f --seed 31 -s 1 -a auto -r 1 -v 2>&1 | head -1 | cut -d: -f1)"
done | tee $OUT/picks.log
common="--algorithms delta_stepping,adds --sources 3 --c-api-sources 0 --no-ceilings --data data"
build/bench/tropic_bench --graphs $files $common --out $OUT/ho >$OUT/ho.log 2>&1
tail -2 $OUT/ho.log
build/bench/tropic_bench --graphs $gens --seed 31 $common --out $OUT/s31 >$OUT/s31.log 2>&1
tail -2 $OUT/s31.log
cd $OUT && mkdir -p keep && for d in ho s31; do cp $d/results.csv keep/$d.csv; done
rm -rf ho s31
