// What the measurement programs in bench/tune/ share: a non-zero input vector, a 32-bit copy of
// a CSR's offsets, the median of event-timed runs, and cuSPARSE's CSR SpMV on a csr_view (the
// ceiling the pull is held to).
#pragma once

#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include <cstdio>
#include <string>

#include "tropic/device_matrix.hpp"
#include "tropic/semiring.hpp"
#include "tropic/generate.hpp"
#include "tropic/io.hpp"
#include "tropic/vector.hpp"

namespace tropic::tune {

// x[i] = 1..1000, a hash of i: finite and non-zero (never time on all-zero data).
template <class W>
__global__ void fill_input(W* x, vertex n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    x[i] = W((i * 2654435761u) % 1000u + 1u);
}

template <class Out>
__global__ void narrow_offsets(const arc_index* in, Out* out, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = Out(in[i]);
}

// min over arcs first + lane, first + lane + stride, ... < last of x[column] + weight (min-plus,
// fp32): each pass loads 4 arcs, then their 4 gathers. The row kernels of the experiments.
template <class Off>
__device__ __forceinline__ float row_part_min(Off first, Off last, Off lane, Off stride,
                                              const vertex* columns, const float* weights,
                                              const float* x) {
  constexpr int items = 4;
  float acc = infinity<float>();
  for (Off run = first + lane; run < last; run += Off(items) * stride) {
    vertex c[items];
    float w[items];
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const Off e = run + Off(k) * stride;
      if (e < last) {
        c[k] = columns[e];
        w[k] = weights[e];
      }
    }
#pragma unroll
    for (int k = 0; k < items; ++k) {
      if (run + Off(k) * stride >= last) continue;
      const float ux = x[c[k]];
      if (ux != infinity<float>()) acc = std::min(acc, saturating_add(ux, w[k]));
    }
  }
  return acc;
}

// Median of `runs` CUDA-event-timed calls on `stream`, after 3 untimed ones.
inline float median_ms(cudaStream_t stream, const std::function<void()>& call, int runs = 21) {
  for (int i = 0; i < 3; ++i) call();
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  std::vector<float> times;
  for (int i = 0; i < runs; ++i) {
    cudaEventRecord(begin, stream);
    call();
    cudaEventRecord(end, stream);
    cudaEventSynchronize(end);
    float ms = 0;
    cudaEventElapsedTime(&ms, begin, end);
    times.push_back(ms);
  }
  cudaEventDestroy(begin);
  cudaEventDestroy(end);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// y = A x by cusparseSpMV (plus-times, CSR fp32, 32-bit indices), A the view's arrays with a
// 32-bit copy of its offsets; run() issues one SpMV on the stream.
class cusparse_spmv {
 public:
  cusparse_spmv(const csr_view<float>& a, const float* x, float* y, cudaStream_t stream)
      : offsets_(std::size_t(a.n) + 1, stream) {
    narrow_offsets<<<1024, 256, 0, stream>>>(a.row_offsets, offsets_.data(), std::size_t(a.n) + 1);
    cusparseCreate(&handle_);
    cusparseSetStream(handle_, stream);
    cusparseCreateCsr(&matrix_, a.n, a.n, int64_t(a.arcs), offsets_.data(),
                      const_cast<vertex*>(a.columns), const_cast<float*>(a.weights),
                      CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                      CUDA_R_32F);
    cusparseCreateDnVec(&x_, a.n, const_cast<float*>(x), CUDA_R_32F);
    cusparseCreateDnVec(&y_, a.n, y, CUDA_R_32F);
    std::size_t bytes = 0;
    cusparseSpMV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_, x_,
                            &beta_, y_, CUDA_R_32F, CUSPARSE_SPMV_CSR_ALG1, &bytes);
    work_ = device_buffer<char>(std::max<std::size_t>(bytes, 1), stream);
  }
  ~cusparse_spmv() {
    cusparseDestroyDnVec(x_);
    cusparseDestroyDnVec(y_);
    cusparseDestroySpMat(matrix_);
    cusparseDestroy(handle_);
  }
  cusparse_spmv(const cusparse_spmv&) = delete;
  cusparse_spmv& operator=(const cusparse_spmv&) = delete;

  void run() {
    cusparseSpMV(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_, x_, &beta_, y_,
                 CUDA_R_32F, CUSPARSE_SPMV_CSR_ALG1, work_.data());
  }
  // The 32-bit offsets, for kernels that want to read them too.
  const int* offsets() const { return offsets_.data(); }

 private:
  device_buffer<int> offsets_;
  device_buffer<char> work_{};
  cusparseHandle_t handle_{};
  cusparseSpMatDescr_t matrix_{};
  cusparseDnVecDescr_t x_{}, y_{};
  float alpha_ = 1, beta_ = 0;
};

// One SpMV problem: a generated graph (seed 1) or a graph file, fp32 weights, on the device, an
// input x filled by fill_input, and outputs y and ref; prints the graph's size.
struct spmv_problem {
  // spec: a generator's (kron:22:16) or a graph file's path (a '/' in it).
  explicit spmv_problem(const std::string& spec)
      : graph(spec.find('/') != std::string::npos ? read_graph<float>(spec)
                                                   : generate<float>(spec, 1)),
        ctx(stream),
        matrix(graph, upload_options{transpose_policy::none}, stream),
        view(matrix.view()),
        n(view.n),
        x(n, stream),
        y(n, stream),
        ref(n, stream) {
    fill_input<<<1024, 256, 0, stream>>>(x.data(), n);
    std::printf("%s n=%u arcs=%llu maxrow=%llu\n", spec.c_str(), n,
                (unsigned long long)view.arcs, (unsigned long long)view.max_row_length);
  }
  csr<float> graph;
  cuda_stream stream;
  gpu_context ctx;
  device_matrix<float> matrix;
  csr_view<float> view;
  vertex n;
  dense_vector<float> x, y, ref;
};

}  // namespace tropic::tune
