# Call 4 (one GPU): delta_stepping against rdbs's final default (delta_0 by arcs, width steps)
# on kron-20/22/24 and uniform-4M, then the rdbs tests and the sweep's default/paper on uniform-4M.
set -uo pipefail
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 200 build/bench/tropic_bench --graphs kron:20:16,kron:22:16,kron:24:16,uniform:4194304:7 --algorithms delta_stepping,rdbs --sources 2 --runs 5 --out /tmp/bench > /tmp/bench.log 2>&1; echo "bench rc $?"; cp /tmp/bench/summary.md $OUT/bench-summary.md; cp /tmp/bench/results.csv $OUT/bench-results.csv
sed -n '/^## Results/,/^## [A-Z]/p' /tmp/bench/summary.md | grep '^|' | head -14
timeout 100 build/test/tropic_tests -ts='rdbs*' > $OUT/rdbs-tests.log 2>&1; echo "rdbs tests rc $?"; tail -3 $OUT/rdbs-tests.log
timeout 60 build/bench/tune/tune_rdbs --variants default,paper uniform:4194304:7 > $OUT/sweep-uniform.log 2>&1; echo "sweep rc $?"; cut -c1-120 $OUT/sweep-uniform.log
date -u
