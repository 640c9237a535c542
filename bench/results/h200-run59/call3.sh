#!/usr/bin/env bash
# Run 59, call 3 (one H200): HEAD's quick benchmark (every row checked); who should drive the
# loop on the scale-free and mid-size graphs (the CLI's --loop auto / host / device, 9 solves,
# the bench's first source); the direction sweeps (descriptor::pull_ratio and pull_arc_ratio,
# chosen on an H100 in runs 8 and 12, before the live-rows pull and its floor); and the pull
# hysteresis (policy::delta_stepping::pull_stay_rows_ratio, 24, from h100-run24) at 1 (off), 8
# and 96 against HEAD on the graphs that pull, the builds alternating, two rounds, certified.
source build-carry/setup.sh
tar -xJf build-carry/b11.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call3.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 150 build/bench/tropic_bench --suite bench/suites/quick.txt --data data --out /tmp/quick \
  > /tmp/quick.log 2>&1; echo "quick rc $?"; tail -3 /tmp/quick.log; cp /tmp/quick/summary.md $OUT/call3-quick-summary.md
mkdir -p /tmp/call3
for round in 1 2; do
  for v in head st1 st8 st96; do
    timeout 60 build/ab/tropic_bench.$v --graphs data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,uniform:4194304:7,kron:20:16,kron:22:16 \
      --algorithms delta_stepping --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv /tmp/call3/bench-$v-$round.csv
  done
  tar -C /tmp -cJf $OUT/call3-bench.tar.xz call3
done
for g in data/cnr-2000.el.gz:245600 data/soc-Slashdot0902.txt.gz:74850 data/mdual.mtx.gz:69448 \
         kron:20:16:417354 data/USA-road-d.NY.gr.gz:162769 uniform:4194304:7:697527; do
  spec=${g%:*}; src=${g##*:}
  for loop in auto host device; do
    echo "== $spec $src --loop $loop"
    timeout 60 build/tropic sssp $spec --source $src -a delta_stepping --loop $loop -v -r 9 --quiet --verify | head -2
  done
done
for mode in 'direction sweep' 'direction arc sweep'; do
  timeout 200 build/bench/tune/tune_delta_stepping "$mode" > "$OUT/call3-${mode// /-}.log" 2>&1
  echo "$mode rc $?"
done
