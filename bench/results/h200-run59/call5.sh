#!/usr/bin/env bash
# Run 59, call 5 (one H200): the GPU-driven loop from the start on small graphs (fewer than 2^19
# vertices, at most 2^23 arcs, the automatic Δ; "new") against HEAD 5d27a12 ("head"): the bench
# on the graphs call 4 measured, the builds alternating, two rounds, every row certified, and
# adds beside them once (auto's other choice); the delta-stepping suites and memcheck of the
# changed sanitizer case on the new build.
source build-carry/setup.sh
tar -xJf build-carry/b13.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call5.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 150 build/test/tropic_tests -ts=delta_stepping,many_sources_gpu,baselines,edge_wise,automatic_rule,certify_gpu 2>&1 | tail -3
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 \
  build/test/tropic_tests -ts=delta_stepping -tc='*small graph for the sanitizers*,*short and wide search*' 2>&1 | tail -3
echo "memcheck rc ${PIPESTATUS[0]}"
G=data/soc-Slashdot0902.txt.gz,data/mdual.mtx.gz,data/cnr-2000.el.gz,kron:17:16,kron:18:16,uniform:262144:7,kron:20:16,uniform:1048576:7
mkdir -p /tmp/call5
for round in 1 2; do
  for v in head new; do
    timeout 90 build/ab/tropic_bench.$v --graphs $G --algorithms delta_stepping --certify --no-ceilings \
      --runs 9 --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv /tmp/call5/bench-$v-$round.csv
  done
  tar -C /tmp -cJf $OUT/call5-bench.tar.xz call5
done
timeout 90 build/ab/tropic_bench.new --graphs $G --algorithms adds --certify --no-ceilings --runs 9 \
  --out /tmp/bench-adds-1 > /tmp/bench-adds-1.log 2>&1; echo "bench adds rc $?"
cp /tmp/bench-adds-1/results.csv /tmp/call5/bench-adds-1.csv
tar -C /tmp -cJf $OUT/call5-bench.tar.xz call5
