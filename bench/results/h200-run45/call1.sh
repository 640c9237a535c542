# Call 1: the peak-memory test (now with rdbs and the shared graphs), the rdbs suite, rdbs and
# delta_stepping on four graphs, then ctest's odd-numbered tests.
set -u
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $OUT/device.txt
cd build
./test/tropic_tests -tc='peak device memory*' > $OUT/call1-peak.log 2>&1; echo "peak rc $?" >> $OUT/call1-peak.log
./test/tropic_tests -ts=rdbs 2>&1 | tail -n 20 > $OUT/call1-rdbs.log
OMP_NUM_THREADS=16 ./bench/tropic_bench --graphs kron:20:16,kron:22:16,../data/USA-road-d.NY.gr.gz,../data/soc-Slashdot0902.txt.gz \
  --algorithms delta_stepping,rdbs --sources 2 --runs 5 --no-ceilings --out $OUT/bench1 > $OUT/call1-bench.log 2>&1
echo "bench rc $?" >> $OUT/call1-bench.log
timeout 420 ctest -I 1,,2 -j10 --timeout 300 > $OUT/call1-ctestA.log 2>&1; echo "ctest rc $?" >> $OUT/call1-ctestA.log
