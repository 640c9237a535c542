// Issue 4 experiment: what one step of vxm_closure's persistent kernel costs without its work.
// Times 20,000 grid barriers in one kernel of a block of 256 threads per SM (the device-driven
// loop's grid) for: a barrier of an arrival count and a generation word (vxm_closure's first
// barrier), the same without __nanosleep in the wait, and cooperative groups' grid.sync() (a
// cooperative launch, which vxm_closure took after this measurement); then the first barrier
// with a one-address atomicAdd per active thread before it (the frontier append of a step with
// `appends` entries). CUDA events, median of 5 after 3 warm-ups. Built by the `tune` target:
//   build/bench/tune/tune_grid_barrier
// The H100's numbers (132 blocks): bench/results/h100-run5/NOTES.md, issue 4.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <functional>

#include <cuda/atomic>

#include "tune_common.cuh"

namespace {

constexpr int steps = 20000;

template <bool Sleep>
__device__ __forceinline__ void spin_barrier(unsigned* arrived, unsigned* generation) {
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> count(*arrived), gen(*generation);
    const unsigned g = gen.load(cuda::std::memory_order_relaxed);
    __threadfence();
    if (count.fetch_add(1, cuda::std::memory_order_acq_rel) == gridDim.x - 1) {
      count.store(0, cuda::std::memory_order_relaxed);
      gen.store(g + 1, cuda::std::memory_order_release);
    } else {
      while (gen.load(cuda::std::memory_order_acquire) == g)
        if (Sleep) __nanosleep(32);
    }
  }
  __syncthreads();
}

__global__ void closure_barrier(unsigned* barrier, unsigned long long* sink, int appends) {
  for (int s = 0; s < steps; ++s) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < unsigned(appends)) atomicAdd(sink, 1ull);
    spin_barrier<true>(barrier, barrier + 1);
  }
}

__global__ void spin_only(unsigned* barrier) {
  for (int s = 0; s < steps; ++s) spin_barrier<false>(barrier, barrier + 1);
}

__global__ void cg_sync() {
  auto grid = cooperative_groups::this_grid();
  for (int s = 0; s < steps; ++s) grid.sync();
}

}  // namespace

int main() {
  unsigned* barrier;
  unsigned long long* sink;
  cudaMalloc(&barrier, 2 * sizeof(unsigned));
  cudaMalloc(&sink, sizeof(unsigned long long));
  cudaMemset(barrier, 0, 2 * sizeof(unsigned));
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const unsigned blocks = unsigned(sms), threads = 256;  // a block per SM
  // Microseconds per barrier: the median of 5 timed kernels (after 3 untimed) over `steps`.
  auto per_step = [](const std::function<void()>& kernel) {
    return tropic::tune::median_ms(nullptr, kernel, 5) * 1000.0f / steps;
  };
  std::printf("closure barrier (nanosleep 32): %.3f us per step\n",
              per_step([&] { closure_barrier<<<blocks, threads>>>(barrier, sink, 0); }));
  std::printf("spin without nanosleep:         %.3f us per step\n",
              per_step([&] { spin_only<<<blocks, threads>>>(barrier); }));
  std::printf("cooperative groups grid.sync:   %.3f us per step\n", per_step([&] {
                void* args[] = {nullptr};
                cudaLaunchCooperativeKernel((void*)cg_sync, blocks, threads, args, 0, nullptr);
              }));
  for (int appends : {1000, 2000, 8000})
    std::printf("closure barrier + %5d one-address appends: %.3f us per step\n", appends,
                per_step([&] { closure_barrier<<<blocks, threads>>>(barrier, sink, appends); }));
  std::printf("cuda: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
