#!/usr/bin/env bash
# delta sweep: adds and delta_stepping at multiples of the heuristic delta (one call)
run() { # graph source algo delta
  out=$(build/tropic sssp $1 -s $2 -a $3 -r 5 -d $4 -v --quiet 2>&1)
  ms=$(sed -n 's/.*solve \([0-9.]*\) ms.*/\1/p' <<<"$out" | tail -1)
  extra=$(grep -oE "[0-9]+ sweeps|[0-9]+ items processed|[0-9]+ retires" <<<"$out" | head -3 | tr '\n' ' ')
  printf "%-28s %-15s delta %-10s %8s ms  %s\n" "$(basename $1)" "$3" "$4" "${ms:--}" "$extra"
}
for spec in "grid:2048:2048 87391 4005.75" "data/USA-road-d.NY.gr.gz 40142 14983.8" "data/mdual.mtx.gz 181164 1032.22" "grid:4096:4096 8943484 4005.75"; do
  set -- $spec
  for f in 1 2 4 8; do
    d=$(awk -v a=$3 -v b=$f "BEGIN{print a*b}")

    run $1 $2 adds $d
  done
done
for f in 0 4005.75 8011.5 16023; do run grid:2048:2048 87391 delta_stepping $f; done
