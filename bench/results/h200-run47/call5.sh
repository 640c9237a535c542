#!/usr/bin/env bash
# Run 47, call 5: where ADDS's time goes on hub graphs it loses (Chung-Lu with ~90K-arc rows,
# Kronecker scale 19) against ones it wins or ties (R-MAT 19, Chung-Lu with 18K-arc rows).
source build-carry/setup.sh
export OMP_NUM_THREADS=16
G=/tmp/ho
python3 bench/held_out_graphs.py $G chunglu:524288:12:2.1:4 rmat:19:16:0.57:0.19:0.19:3 \
  chunglu:262144:16:2.5:1 >/dev/null
# graph and one of call 1's sources (kron:19:16 of seed 11)
for gs in $G/chunglu_524288_12_2.1_4.tgr:159852 $G/rmat_19_16_0.57_0.19_0.19_3.tgr:322799 \
          $G/chunglu_262144_16_2.5_1.tgr:56073 kron:19:16:116078; do
  g=${gs%:*} s=${gs##*:}
  for a in adds delta_stepping; do
    echo "== $(basename $g) -s $s $a"
    build/tropic sssp $g --seed 11 -s $s -a $a -r 5 -v 2>&1 | head -40
  done
done
