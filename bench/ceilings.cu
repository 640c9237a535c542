// The ceilings, measured in the same run as the algorithms: device-to-device copy bandwidth,
// cuSPARSE's plus-times SpMV on the graph's CSR (the best one pass over the arcs can do), our
// min-plus SpMV on the same matrix (issue 3's 0.9x target), and our push SpMSpV from frontiers
// of 1% and 10% of the vertices; for double weights also both SpMVs in fp64 (issue 35: every
// weight type the bench runs). CUDA events, warm-up runs first, median of the timed runs.
#include <cusparse.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "ceilings.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"
#include "tropic/sssp.hpp"

namespace tropic::bench {

namespace {

constexpr int warmup_runs = 3;
constexpr int timed_runs = 15;

#define TROPIC_CUSPARSE_CHECK(call)                                                     \
  do {                                                                                  \
    cusparseStatus_t s_ = (call);                                                       \
    if (s_ != CUSPARSE_STATUS_SUCCESS)                                                  \
      throw error(error_code::cuda, std::string(#call) + " failed: " + cusparseGetErrorString(s_)); \
  } while (0)

// Median / min of `timed_runs` event-timed calls of `pass`, after `prepare` (untimed) each time.
ceiling_row time_pass(const std::string& name, cudaStream_t s, const std::function<void()>& pass,
                      const std::function<void()>& prepare = [] {}) {
  cudaEvent_t start, stop;
  TROPIC_CUDA_CHECK(cudaEventCreate(&start));
  TROPIC_CUDA_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < warmup_runs; ++i) {
    prepare();
    pass();
  }
  std::vector<double> ms;
  for (int i = 0; i < timed_runs; ++i) {
    prepare();
    TROPIC_CUDA_CHECK(cudaEventRecord(start, s));
    pass();
    TROPIC_CUDA_CHECK(cudaEventRecord(stop, s));
    TROPIC_CUDA_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    TROPIC_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  ceiling_row r;
  r.name = name;
  r.milliseconds = ms[ms.size() / 2];
  r.min_milliseconds = ms.front();
  r.runs = timed_runs;
  return r;
}

template <class T>
__global__ void fill_pattern(T* x, vertex n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    x[i] = T((i * 2654435761u) % 1000u) + T(1);  // finite, nonzero: never all-zero data
}

__global__ void to_int32(const arc_index* in, int* out, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = int(in[i]);
}

// Bytes of one full SpMV pass over T values: offsets, columns, values, x gathered once per arc
// (upper bound without cache reuse: the compulsory traffic, the arrays once each), y written.
double spmv_bytes(vertex n, arc_index m, std::size_t value_bytes) {
  return double(n + 1) * 4 + double(m) * (4 + value_bytes) + double(n) * value_bytes * 2;
}

// cuSPARSE's plus-times SpMV y = A x, CSR of T (float or double) with 32-bit indices: needs
// fewer than 2^31 arcs, else no row.
template <class T>
void cusparse_spmv_row(std::vector<ceiling_row>& rows, const std::string& name,
                       const csr_view<T>& v, const T* x, T* y, cudaStream_t stream) {
  const vertex n = v.n;
  const arc_index m = v.arcs;
  if (m >= (arc_index(1) << 31)) return;
  constexpr cudaDataType type = std::is_same_v<T, double> ? CUDA_R_64F : CUDA_R_32F;
  device_buffer<int> offsets32(std::size_t(n) + 1, stream);
  to_int32<<<1024, 256, 0, stream>>>(v.row_offsets, offsets32.data(), std::size_t(n) + 1);
  cusparseHandle_t handle;
  TROPIC_CUSPARSE_CHECK(cusparseCreate(&handle));
  TROPIC_CUSPARSE_CHECK(cusparseSetStream(handle, stream));
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vx, vy;
  TROPIC_CUSPARSE_CHECK(cusparseCreateCsr(&mat, n, n, int64_t(m), offsets32.data(),
                                          const_cast<vertex*>(v.columns),
                                          const_cast<T*>(v.weights), CUSPARSE_INDEX_32I,
                                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type));
  TROPIC_CUSPARSE_CHECK(cusparseCreateDnVec(&vx, n, const_cast<T*>(x), type));
  TROPIC_CUSPARSE_CHECK(cusparseCreateDnVec(&vy, n, y, type));
  const T alpha = 1, beta = 0;
  std::size_t bytes = 0;
  TROPIC_CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                                mat, vx, &beta, vy, type,
                                                CUSPARSE_SPMV_CSR_ALG1, &bytes));
  device_buffer<unsigned char> buffer(bytes, stream);
  auto r = time_pass(name, stream, [&] {
    TROPIC_CUSPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx,
                                       &beta, vy, type, CUSPARSE_SPMV_CSR_ALG1, buffer.data()));
  });
  r.bytes = spmv_bytes(n, m, sizeof(T));
  r.arcs = double(m);
  r.note = std::string("cusparseSpMV plus-times, CSR ") + (sizeof(T) == 8 ? "fp64" : "fp32") +
           ", CSR_ALG1";
  rows.push_back(r);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroySpMat(mat);
  cusparseDestroy(handle);
}

}  // namespace

std::vector<ceiling_row> measure_ceilings(const csr<float>& g) {
  std::vector<ceiling_row> rows;
  if (!gpu_available() || g.n == 0) return rows;
  cuda_stream stream;
  const vertex n = g.n;
  const arc_index m = g.arcs();
  const device_matrix<float> a(g, {}, stream);
  const csr_view<float> v = a.view();

  // 1. Device-to-device copy of the arc arrays' size (read + write counted).
  {
    const std::size_t bytes = std::max<std::size_t>(m * 8, std::size_t(64) << 20);
    device_buffer<unsigned char> src(bytes, stream), dst(bytes, stream);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(src.data(), 1, bytes, stream));
    auto r = time_pass("device_copy", stream, [&] {
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, stream));
    });
    r.bytes = 2.0 * bytes;
    r.note = "cudaMemcpyAsync device to device, " + std::to_string(bytes >> 20) + " MiB";
    rows.push_back(r);
  }

  device_buffer<float> x(n, stream), y(n, stream);
  fill_pattern<<<1024, 256, 0, stream>>>(x.data(), n);
  const double float_spmv_bytes = spmv_bytes(n, m, sizeof(float));

  // 2. cuSPARSE plus-times SpMV, CSR fp32.
  cusparse_spmv_row(rows, "cusparse_spmv", v, x.data(), y.data(), stream);

  // 3. tropic's min-plus SpMV (mxv, no mask, no accumulator) and plus-times on the same matrix.
  gpu_context ctx(stream);
  dense_vector<float> dx(n, stream), dy(n, stream);
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(dx.data(), x.data(), n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
  {
    // The automatic kernel, and each kernel forced where it makes sense: merge path always, a
    // group per row where no row is long enough to stall a warp for long (its time is its row's
    // length, so a hub of 10^6 arcs would take a group milliseconds).
    const auto view = a.view();
    const bool by_rows = pull_by_group_per_row(view, descriptor{});
    const char* automatic_kernel = by_rows ? "group per row" : "merge path";
    const double bytes = float_spmv_bytes + double(n + 1) * 4;  // our offsets are 64-bit
    auto add = [&](const std::string& name, const descriptor& d, const std::string& note,
                   auto semiring) {
      auto r = time_pass(name, stream, [&] {
        mxv(dy, no_mask<float>(), accumulator::none, semiring, all_of(a), dx, d, ctx);
      });
      r.bytes = bytes;
      r.arcs = double(m);
      r.note = note;
      rows.push_back(r);
    };
    add("tropic_min_plus_spmv", descriptor{},
        std::string("mxv min_plus<float>, dense x, no mask; automatic kernel: ") +
            automatic_kernel,
        min_plus<float>{});
    add("tropic_plus_times_spmv", descriptor{},
        std::string("mxv plus_times<float> (cuSPARSE's semiring), automatic kernel: ") +
            automatic_kernel,
        plus_times<float>{});
    descriptor merge;
    merge.pull = pull_method::merge_path;
    descriptor group;
    group.pull = pull_method::group_per_row;
    if (by_rows)
      add("tropic_min_plus_spmv_merge_path", merge, "mxv min_plus<float>, merge path forced",
          min_plus<float>{});
    else if (view.max_row_length <= 1024)
      add("tropic_min_plus_spmv_group_per_row", group,
          "mxv min_plus<float>, group per row forced", min_plus<float>{});
  }

  // 4. Push SpMSpV from 1% and 10% of the vertices into a dense output (accumulate min).
  for (double share : {0.01, 0.10}) {
    std::vector<vertex> idx;
    std::vector<float> val;
    const std::size_t k = std::max<std::size_t>(1, std::size_t(share * n));
    const std::size_t step = std::max<std::size_t>(1, n / k);
    std::uint64_t touched_arcs = 0;
    for (std::size_t i = 0; i < n && idx.size() < k; i += step) {
      const vertex u = vertex((i * 2654435761ull) % n);
      idx.push_back(u);
      val.push_back(float(u % 100));
      touched_arcs += g.degree(u);
    }
    sparse_vector<float> u(n, stream);
    u.upload(idx, val);
    descriptor push;
    push.dir = direction::push;
    auto r = time_pass(std::string("tropic_push_") + (share < 0.05 ? "1pct" : "10pct"), stream,
                       [&] { vxm(dy, no_mask<float>(), accumulator::min, min_plus<float>{}, u, all_of(a), push, ctx); },
                       [&] { assign(dy, no_mask<float>(), infinity<float>(), false, ctx); });
    // Bytes of the touched rows (offsets, columns, weights) plus a read-modify of y per arc.
    r.bytes = double(idx.size()) * (8 * 2 + 8) + double(touched_arcs) * (4 + 4 + 4);
    r.arcs = double(touched_arcs);
    r.note = std::to_string(idx.size()) + " frontier vertices, " + std::to_string(touched_arcs) +
             " arcs; merge-path push, atomicMin into dense y";
    rows.push_back(r);
  }
  return rows;
}

std::vector<ceiling_row> measure_double_spmv_ceilings(const csr<double>& g) {
  std::vector<ceiling_row> rows;
  if (!gpu_available() || g.n == 0) return rows;
  cuda_stream stream;
  const vertex n = g.n;
  const device_matrix<double> a(g, {}, stream);
  dense_vector<double> x(n, stream), y(n, stream);
  fill_pattern<<<1024, 256, 0, stream>>>(x.data(), n);
  cusparse_spmv_row(rows, "cusparse_spmv_fp64", a.view(), x.data(), y.data(), stream);
  gpu_context ctx(stream);
  auto r = time_pass("tropic_min_plus_spmv_fp64", stream, [&] {
    mxv(y, no_mask<double>(), accumulator::none, min_plus<double>{}, all_of(a), x, descriptor{},
        ctx);
  });
  r.bytes = spmv_bytes(n, g.arcs(), sizeof(double)) + double(n + 1) * 4;  // 64-bit offsets
  r.arcs = double(g.arcs());
  r.note = std::string("mxv min_plus<double>, dense x, no mask; automatic kernel: ") +
           (pull_by_group_per_row(a.view(), descriptor{}) ? "group per row" : "merge path");
  rows.push_back(r);
  return rows;
}

}  // namespace tropic::bench
