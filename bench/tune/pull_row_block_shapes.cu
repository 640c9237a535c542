// The tile-shape sweep of the row-block pull (tuning.hpp, bench/RESULTS.md run 4): each shape
// against the merge path on generated graphs, fp32 min-plus SpMV, median of 21 after 3 warm-ups
// (CUDA events). Not part of the build; from the repository root, for the H100:
//   nvcc -DTROPIC_HAVE_CUDA=1 -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Ilib \
//     -Isemiring -Xcompiler -fopenmp bench/tune/pull_row_block_shapes.cu lib/device_matrix.cu \
//     lib/device_memory.cu lib/csr.cpp lib/generate.cpp semiring/context.cu -lgomp \
//     -o /tmp/shapes && /tmp/shapes
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>
#include "operators.cuh"
#include "tropic/generate.hpp"
using namespace tropic;

template <class RB>
float time_shape(const device_matrix<float>& a, dense_vector<float>& y, const float* x, gpu_context& ctx, int pull) {
  descriptor d;
  d.pull = pull ? pull_method::row_blocks : pull_method::merge_path;
  matrix_operand<float> op{&a, row_part::all, nullptr};
  auto call = [&] {
    detail::pull_dispatch<min_plus<float>, float, detail::pull_default_policy, RB>(
        y, no_mask<float>(), accumulator::none, a.view(), detail::ranges_of(a.view(), op, false), x, d, ctx,
        nullptr, {}, nullptr);
  };
  for (int i = 0; i < 3; ++i) call();
  cudaEvent_t b, e;
  cudaEventCreate(&b); cudaEventCreate(&e);
  std::vector<float> t;
  for (int i = 0; i < 21; ++i) {
    cudaEventRecord(b, ctx.stream()); call(); cudaEventRecord(e, ctx.stream());
    cudaEventSynchronize(e);
    float ms; cudaEventElapsedTime(&ms, b, e); t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  for (std::string spec : {"grid:2048:2048", "grid:4096:4096", "uniform:4194304:7", "kron:18:4"}) {
    auto g = generate<float>(spec, 1);
    cuda_stream stream;
    gpu_context ctx(stream);
    device_matrix<float> a(g, upload_options{true}, stream);
    std::vector<float> hx(g.n);
    std::mt19937 rng(1);
    for (auto& v : hx) v = float(rng() % 1000);
    dense_vector<float> x(g.n, stream), y(g.n, stream);
    x.upload(hx);
    std::printf("%s n=%u arcs=%llu maxrow=%llu\n", spec.c_str(), g.n, (unsigned long long)g.arcs(), (unsigned long long)a.view().max_row_length);
    std::printf("  merge path          %.4f ms\n", time_shape<detail::row_block_default_policy>(a, y, x.data(), ctx, 0));
#define SHAPE(T, R, I) std::printf("  rows %3d x %d items %2d: %.4f ms\n", T, R, I, time_shape<detail::row_block_policy<T, R, I>>(a, y, x.data(), ctx, 1));
    SHAPE(256, 1, 4) SHAPE(128, 1, 4) SHAPE(128, 1, 8) SHAPE(256, 1, 2) SHAPE(64, 1, 4) SHAPE(128, 2, 4)
    SHAPE(64, 2, 8) SHAPE(32, 1, 4) SHAPE(128, 1, 2) SHAPE(256, 2, 4) SHAPE(256, 2, 8)
    SHAPE(256, 4, 16) SHAPE(256, 2, 16) SHAPE(256, 4, 8)
  }
}
