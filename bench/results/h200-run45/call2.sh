# Call 2: 7f9f1c1's binaries. The peak-memory test, the operator and rdbs suites, rdbs and
# delta_stepping A/B against ade9712's tropic_bench (build-carry/old), then ctest's even-numbered tests.
set -u
source build-carry/setup.sh
mkdir -p /tmp/old && cp build/abold/tropic_bench /tmp/old/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $OUT/device.txt
cd build
./test/tropic_tests -tc='peak device memory*' > $OUT/call2-peak.log 2>&1; echo "peak rc $?" >> $OUT/call2-peak.log
./test/tropic_tests -ts=operators,rdbs 2>&1 | tail -n 4 > $OUT/call2-suites.log
G=kron:20:16,kron:22:16,../data/USA-road-d.NY.gr.gz,../data/soc-Slashdot0902.txt.gz,../data/mdual.mtx.gz
for round in 1 2; do
  OMP_NUM_THREADS=16 /tmp/old/tropic_bench --graphs $G --algorithms delta_stepping,rdbs --sources 2 --runs 7 --no-ceilings --out /tmp/old$round > /tmp/old$round.log 2>&1
  OMP_NUM_THREADS=16 ./bench/tropic_bench --graphs $G --algorithms delta_stepping,rdbs --sources 2 --runs 7 --no-ceilings --out /tmp/new$round > /tmp/new$round.log 2>&1
done
for d in old1 new1 old2 new2; do echo "== $d"; sed -n '/^## Results/,/^## [A-Z]/p' /tmp/$d/summary.md | grep -v dijkstra; done > $OUT/call2-ab.md 2>&1
timeout 400 ctest -I 2,,2 -j10 --timeout 300 > $OUT/call2-ctestB.log 2>&1; echo "ctest rc $?" >> $OUT/call2-ctestB.log
