#!/usr/bin/env bash
# Δ sweep of delta_stepping on the Kronecker graphs: the automatic Δ and multiples, and inf.
B=build/tropic
for g in kron:20:16 kron:22:16 kron:24:16; do
  $B generate $g -o /tmp/$(echo $g | tr : _).tgr --quiet
done
for pass in 1 2; do
for gs in "kron_20_16 296870 134" "kron_20_16 742646 134" "kron_22_16 2649658 132" "kron_22_16 3141070 132" "kron_24_16 380849 130"; do
  set -- $gs
  for m in 1 2 4 8 inf; do
    if [ $m = inf ]; then d=inf; else d=$(( $3 * m )); fi
    printf "pass %s %s -s %s -d %s: " $pass $1 $2 $d
    $B sssp /tmp/$1.tgr -s $2 -a delta_stepping -d $d -r 5 --quiet -v | tr '\n' ' '
    echo
  done
done
done
