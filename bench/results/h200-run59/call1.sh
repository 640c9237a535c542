#!/usr/bin/env bash
# Run 59, call 1 (one H200): (1) where kron-22's and kron-20's delta-stepping solve goes: every
# kernel's duration under ncu (the CLI, one solve, the bench's first source), and the same solve
# timed without it; (2) the pipelined arc loop as a helper (wip/pipelined-arc-loops, "fea":
# push_row through for_each_arc, and mxm_closure's and near_far_blocks' loops pipelined) against
# HEAD d544f75 ("head"): the bench, builds alternating, two rounds, every row certified; the
# many-source paths on short rows (near_far_blocks, the mxm batch) by tune_batch_sources.
source build-carry/setup.sh
tar -xJf build-carry/b9.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call1.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for g in kron:22:16:345752 kron:20:16:417354; do
  spec=${g%:*}; src=${g##*:}
  echo "== $spec source $src: the CLI, 9 solves"
  timeout 120 build/tropic sssp $spec --source $src -a delta_stepping -v -r 9 --quiet
  echo "== ncu"
  timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    --log-file $OUT/ncu-${spec//:/-}.csv build/tropic sssp $spec --source $src -a delta_stepping -v --quiet
  echo "ncu rc $?"
done
mkdir -p /tmp/call1
for round in 1 2; do
  for v in head fea; do
    timeout 150 build/ab/tropic_bench.$v --graphs data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,grid:2048:2048,grid:4096:4096,uniform:4194304:7,kron:20:16,kron:22:16 \
      --algorithms delta_stepping,adds --certify --no-ceilings --runs 9 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv /tmp/call1/bench-$v-$round.csv
  done
  tar -C /tmp -cJf $OUT/call1-bench.tar.xz call1
done
for round in 1 2; do
  for v in head fea; do
    echo "== many sources $v round $round"
    timeout 120 build/ab/tune_batch_sources.$v data/USA-road-d.NY.gr.gz grid:1024:1024 k=64 runs=5 check=4 blocks=0
  done
done
