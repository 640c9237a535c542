// Issue 35 experiment: the register bound of the warps' merge path (the plain SpMV's kernel) by
// semiring and value type. ptxas holds pull_warp_path to the registers that MinBlocks resident
// blocks of 128 threads a SM leave: 56 at 9, 64 at 8, 72 at 7, 80 at 6. Fewer registers than an
// instance needs spill; more cost resident warps. For each graph, each of min-plus over float,
// uint32, int32, int64, uint64, double and plus-times over float and double, and each bound:
// the median of 21 CUDA-event-timed SpMVs after 3 warm-ups, each answer checked against the
// library's choice (min-plus exactly, plus-times to 1e-5 relative: the split rows' sums may
// combine in another order); cuSPARSE's fp32 SpMV on the same graph for scale. With
// TROPIC_TUNE_SHAPES_8B, the 8-byte instances under shorter tiles at more blocks instead.
// Built by `tune`:
//   [TROPIC_TUNE_SHAPES_8B=1] build/bench/tune/tune_pull_warp_registers [spec or graph file...]
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "operators.cuh"
#include "tropic/generate.hpp"
#include "tune_common.cuh"
using namespace tropic;

namespace {

template <class W>
bool same(const std::vector<W>& want, const std::vector<W>& got, bool exact) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (want[i] == got[i]) continue;
    if (exact) return false;
    const double a = double(want[i]), b = double(got[i]);
    if (!(std::abs(a - b) <= 1e-5 * std::max(std::abs(a), std::abs(b)))) return false;
  }
  return true;
}

// The bounds from 9 blocks to 6 at the default tile (128 threads x 8 items).
using bounds = std::tuple<detail::pull_policy<128, 8, 9>, detail::pull_policy<128, 8, 8>,
                          detail::pull_policy<128, 8, 7>, detail::pull_policy<128, 8, 6>>;
// Shorter tiles at more blocks, for the 8-byte instances (items x bound; no spill at any, by
// ptxas, but 4 x 9 for double: 4 bytes).
using shapes_8b =
    std::tuple<detail::pull_policy<128, 8, 7>, detail::pull_policy<128, 8, 6>,
               detail::pull_policy<128, 7, 7>, detail::pull_policy<128, 6, 8>,
               detail::pull_policy<128, 5, 8>, detail::pull_policy<128, 4, 8>,
               detail::pull_policy<128, 4, 9>>;

// The SpMV of semiring S over the graph's arcs with weights cast to W, under each policy.
template <class S, class W, class Policies = bounds>
void sweep(const char* name, const csr<float>& g, cudaStream_t stream) {
  csr<W> typed{g.n, g.row_offsets, g.columns, {}};
  typed.weights.reserve(g.weights.size());
  for (float w : g.weights) typed.weights.push_back(W(w));
  gpu_context ctx(stream);
  const device_matrix<W> a(typed, upload_options{transpose_policy::none}, stream);
  const csr_view<W> v = a.view();
  const vertex n = v.n;
  dense_vector<W> x(n, stream), y(n, stream);
  tune::fill_input<<<1024, 256, 0, stream>>>(x.data(), n);
  const matrix_operand<W> op{&a, row_part::all, nullptr};
  descriptor d;
  d.pull = pull_method::merge_path;  // short rows would take pull_group_per_row
  auto pull = [&](auto policy) {
    using P = decltype(policy);
    detail::pull_dispatch<S, W, P>(
        detail::pull_operands<W>{&y, no_mask<W>(), accumulator::none, v,
                                 detail::ranges_of(v, op, false), x.data()},
        d, ctx);
  };
  auto result = [&] {
    std::vector<W> out(n);
    cudaMemcpyAsync(out.data(), y.data(), n * sizeof(W), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    return out;
  };
  pull(detail::pull_default_policy_for<S, W>{});
  const std::vector<W> want = result();
  std::printf("  %-22s", name);
  auto time = [&](auto policy) {
    using P = decltype(policy);
    pull(policy);
    const bool ok = same(want, result(), S::is_min_monoid);
    const float ms = tune::median_ms(stream, [&] { pull(policy); });
    std::printf("  %dx%d: %.4f%s", P::warp_items, P::warp_min_blocks, ms, ok ? "" : " WRONG");
  };
  std::apply([&](auto... policy) { (time(policy), ...); }, Policies{});
  const float ms = tune::median_ms(stream, [&] { pull(detail::pull_default_policy_for<S, W>{}); });
  std::printf("  library: %.4f ms\n", ms);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> specs;
  for (int i = 1; i < argc; ++i) specs.push_back(argv[i]);
  if (specs.empty()) specs = {"kron:22:16", "kron:20:16"};
  for (const auto& spec : specs) {
    tune::spmv_problem problem(spec);  // the fp32 graph, and cuSPARSE's SpMV on it
    cudaStream_t stream = problem.stream;
    tune::cusparse_spmv spmv(problem.view, problem.x.data(), problem.y.data(), stream);
    std::printf("  cusparse plus-times fp32  %.4f ms\n",
                tune::median_ms(stream, [&] { spmv.run(); }));
    const csr<float>& g = problem.graph;
    if (std::getenv("TROPIC_TUNE_SHAPES_8B")) {  // the 8-byte instances' tile shapes only
      sweep<min_plus<double>, double, shapes_8b>("min_plus<double>", g, stream);
      sweep<min_plus<std::int64_t>, std::int64_t, shapes_8b>("min_plus<int64>", g, stream);
      sweep<plus_times<double>, double, shapes_8b>("plus_times<double>", g, stream);
      continue;
    }
    sweep<min_plus<float>, float>("min_plus<float>", g, stream);
    sweep<min_plus<std::uint32_t>, std::uint32_t>("min_plus<uint32>", g, stream);
    sweep<min_plus<std::int32_t>, std::int32_t>("min_plus<int32>", g, stream);
    sweep<min_plus<std::int64_t>, std::int64_t>("min_plus<int64>", g, stream);
    sweep<min_plus<std::uint64_t>, std::uint64_t>("min_plus<uint64>", g, stream);
    sweep<min_plus<double>, double>("min_plus<double>", g, stream);
    sweep<plus_times<float>, float>("plus_times<float>", g, stream);
    sweep<plus_times<double>, double>("plus_times<double>", g, stream);
  }
  return 0;
}
