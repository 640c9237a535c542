#!/usr/bin/env bash
# Run 47, call 3: the rule of 5c1a83e + its probe bound of 50 on graphs no fit saw: a third set of parameters
# and seeds of the held-out generators, and Kronecker / uniform graphs of seed 41.
source build-carry/setup.sh
export OMP_NUM_THREADS=16
G=/tmp/ho
python3 bench/held_out_graphs.py $G \
  rgg:131072:5:11 rgg:2097152:8:12 rgg:262144:10:13 mesh3d:80:80:80:11 mesh3d:32:32:256:12 \
  chunglu:262144:8:2.6:11 chunglu:655360:6:2.8:12 rmat:19:8:0.55:0.2:0.2:11 \
  rmat:20:6:0.5:0.2:0.2:12 ws:786432:6:0.02:11 ws:393216:12:0.3:12 2>&1 | tee $OUT/gen.log
files=$(ls $G/*.tgr | paste -sd,)
gens=kron:19:16,kron:18:12,uniform:655360:6,uniform:1572864:3,grid:512:1024
for f in $G/*.tgr ${gens//,/ }; do
  echo "$(basename $f) $(build/tropic info $f --seed 41 | grep -E '^(vertices|arcs|degree|probe)' | awk '{print $2, $3, $4, $5}' | paste -sd' ') $(build/tropic sssp $f --seed 41 -s 1 -a auto -r 1 -v 2>&1 | head -1 | cut -d: -f1)"
done | tee $OUT/picks.log
common="--algorithms delta_stepping,adds --sources 3 --c-api-sources 0 --no-ceilings --data data"
build/bench/tropic_bench --graphs $files $common --out $OUT/ho >$OUT/ho.log 2>&1
tail -2 $OUT/ho.log
build/bench/tropic_bench --graphs $gens --seed 41 $common --out $OUT/s41 >$OUT/s41.log 2>&1
tail -2 $OUT/s41.log
cd $OUT && mkdir -p keep && for d in ho s41; do cp $d/results.csv keep/$d.csv; done
rm -rf ho s41
# The GPU check of the automatic rule's change: ctest's first stripe.
cd - >/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ctest --test-dir build -I 1,,2 -j10 --timeout 300 -E "package.install_and_use" >$OUT/ctest1.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout" $OUT/ctest1.log | head -20
