#!/usr/bin/env bash
# Run 47, call 1: the automatic rule (ADDS or delta-stepping) on graphs of generators it was not
# fit on (bench/held_out_graphs.py), and Kronecker / uniform graphs of other seeds.
source build-carry/setup.sh
export OMP_NUM_THREADS=16
G=/tmp/ho
python3 bench/held_out_graphs.py $G \
  rgg:262144:4:1 rgg:1048576:5:2 rgg:4194304:4:3 \
  chunglu:262144:16:2.5:1 chunglu:524288:12:2.1:4 chunglu:1048576:8:2.2:2 chunglu:1048576:16:2.7:3 \
  rmat:18:16:0.45:0.15:0.15:1 rmat:17:32:0.6:0.2:0.1:5 rmat:19:16:0.57:0.19:0.19:3 \
  rmat:20:8:0.45:0.15:0.15:2 rmat:21:8:0.57:0.19:0.19:4 \
  ws:262144:10:0.1:2 ws:1048576:6:0.01:1 mesh3d:64:64:64:1 mesh3d:128:128:128:2 \
  2>&1 | tee $OUT/gen.log
files=$(ls $G/*.tgr | paste -sd,)
for f in $G/*.tgr; do
  echo "$(basename $f) $(build/tropic sssp $f -s 1 -a auto -r 1 -v 2>&1 | head -1 | cut -d: -f1)"
done | tee $OUT/picks.log
common="--algorithms delta_stepping,adds --sources 3 --c-api-sources 0 --no-ceilings --data data"
build/bench/tropic_bench --graphs $files $common --out $OUT/ho >$OUT/ho.log 2>&1
tail -3 $OUT/ho.log
for seed in 11 23; do
  g=kron:17:16,kron:18:16,kron:19:16,kron:18:8,uniform:1048576:8,uniform:4194304:5
  for x in ${g//,/ }; do
    echo "seed $seed $x $(build/tropic sssp $x --seed $seed -s 1 -a auto -r 1 -v 2>&1 | head -1 | cut -d: -f1)"
  done | tee -a $OUT/picks.log
  build/bench/tropic_bench --graphs $g --seed $seed $common --out $OUT/s$seed >$OUT/s$seed.log 2>&1
  tail -2 $OUT/s$seed.log
done
cd $OUT && mkdir -p keep && for d in ho s11 s23; do cp $d/results.csv keep/$d.csv; done
rm -rf ho s11 s23
