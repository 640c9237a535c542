# How call 5's Python module was built on the development machine (CPython 3.12 headers from
# pyenv, nanobind's sources from the build's venv, the build's static libraries). A record, not
# a supported script: its paths are this machine's.
set -e
cd /work/main/build-py312
PYI=/root/.pyenv/versions/3.12.1/include/python3.12
NB=/work/main/.venv/lib/python3.11/site-packages/nanobind
objs=()
for f in common error implicit nb_datetime nb_enum nb_func nb_internals nb_ndarray nb_static_property nb_type trampoline; do
  [ -f $NB/src/$f.cpp ] || continue
  c++ -DNB_BUILD -DNB_COMPACT_ASSERTIONS -I$PYI -I$NB/include -isystem $NB/ext/robin_map/include -O3 -DNDEBUG -fPIC -fvisibility=hidden -ffunction-sections -fdata-sections -fno-strict-aliasing -mtls-dialect=gnu2 -fno-stack-protector -std=c++17 -c $NB/src/$f.cpp -o nb_$f.o &
  objs+=(nb_$f.o)
  while [ $(jobs -r | wc -l) -ge 2 ]; do sleep 1; done
done
wait
ar rcs libnanobind-static.a "${objs[@]}"
B=/work/main/build
c++ -DTROPIC_HAVE_CUDA=1 -Dtropic_python_EXPORTS -I$PYI -I$NB/include -I$B/include/tropic_core -I$B/include/tropic_version -I$B/include/tropic_semiring -I$B/include/tropic_algorithms -I$B/include/tropic_capi -isystem /usr/local/cuda/include -O3 -DNDEBUG -fPIC -fvisibility=hidden -fno-stack-protector -Os -ffunction-sections -fdata-sections -std=c++17 -c /work/main/python/src/module.cpp -o module.o
c++ -fPIC -O3 -DNDEBUG -Wl,-s -Wl,--exclude-libs,ALL -Wl,--gc-sections -shared -o _tropic.cpython-312-x86_64-linux-gnu.so module.o -L/usr/local/cuda/targets/x86_64-linux/lib -Wl,-rpath,/usr/local/cuda/lib: libnanobind-static.a $B/libtropic_capi.a $B/libtropic_algorithms.a $B/libtropic_semiring.a $B/libtropic_core.a /usr/lib/x86_64-linux-gnu/libgraphblas.so /usr/lib/x86_64-linux-gnu/libz.so /usr/local/cuda/lib/libcudart.so /usr/local/cuda/lib/libcusparse.so /usr/local/cuda/lib/libnccl.so /usr/lib/gcc/x86_64-linux-gnu/12/libgomp.so /usr/lib/x86_64-linux-gnu/libpthread.a -lcudadevrt -lcudart
ls -la _tropic*.so
