// Scaffolding of the persistent cooperative kernels (adds*.cu, rdbs*.cu): one grid of blocks
// that stay resident for a whole run (ADDS) or phase (RDBS), one block managing, the others
// working, all talking through device-scope atomics.
//
// Device side: the atomic view and memory orders, the global timer the watchdogs read, relaxed
// loads of words other blocks write, and warp-aggregated reservations of queue positions.
// Host side: argument checks, the resident grid (occupancy API, cooperative launch), a pinned
// host area the kernel polls, a bounded peek at the kernel's control block while it runs, the
// host timeout, and status words as text.
#pragma once

#include <cooperative_groups.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cuda/atomic>
#include <initializer_list>
#include <string>
#include <thread>

#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/error.hpp"
#include "tropic/sssp.hpp"

namespace tropic::detail::persistent {

using cuda::memory_order_acq_rel;
using cuda::memory_order_acquire;
using cuda::memory_order_relaxed;
using cuda::memory_order_release;

template <class T>
using device_atomic = cuda::atomic_ref<T, cuda::thread_scope_device>;

// ---------------------------------------------------------------------------------------------
// Device side.

// Nanoseconds of the GPU's global timer: the device watchdogs' clock.
__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// A word that other blocks lower or bump concurrently (a distance, a head slot): relaxed, so a
// stale value is allowed, but never a torn one.
template <class T>
__device__ __forceinline__ T load_relaxed(T* p) {
  return device_atomic<T>(*p).load(memory_order_relaxed);
}

// One position of *counter for each calling lane: the lanes of a warp that pass the same label
// (and so the same counter) share one fetch_add. Relaxed: a position only has to be unique;
// callers say what carries its visibility.
// `also`, when given, is bumped by as many in the same way (a count of what is there to take).
template <class Label>
__device__ __forceinline__ unsigned long long reserve_grouped(unsigned long long* counter,
                                                              Label label,
                                                              unsigned long long* also = nullptr) {
  namespace cg = cooperative_groups;
  cg::coalesced_group active = cg::coalesced_threads();
  cg::coalesced_group same = cg::labeled_partition(active, label);
  unsigned long long base = 0;
  if (same.thread_rank() == 0) {
    base = device_atomic<unsigned long long>(*counter).fetch_add(same.size(), memory_order_relaxed);
    if (also) device_atomic<unsigned long long>(*also).fetch_add(same.size(), memory_order_relaxed);
  }
  base = same.shfl(base, 0);
  return base + same.thread_rank();
}

// ---------------------------------------------------------------------------------------------
// Host side.

// The checks every entry point makes before it allocates (`who` prefixes the message), and
// the initial delta: options.delta (or the heuristic's, resolve_delta) x factor, positive.
template <class W>
double initial_delta(const char* who, const device_matrix<W>& a, vertex source, const options& opts,
                     double factor = 1) {
  const vertex n = a.rows();
  if (n == 0)
    throw error(error_code::invalid_value, std::string(who) + ": the graph has no vertices");
  if (source >= n)
    throw error(error_code::invalid_index, std::string(who) + ": source vertex " +
                                               std::to_string(source) +
                                               " is out of range (n = " + std::to_string(n) + ")");
  const double delta0 = resolve_delta(a, opts) * factor;
  if (!(delta0 > 0))
    throw error(error_code::invalid_value, std::string(who) + ": delta must be positive");
  return delta0;
}

// How many blocks of a persistent kernel the device keeps resident at once: the occupancy API's
// blocks per SM times the SMs (never a fixed SM count). Throws when the device cannot launch it
// cooperatively, which is what guarantees that every block of the grid is resident together.
struct resident_grid {
  int sms = 0;     // the device's SMs
  int per_sm = 0;  // blocks of the kernel that fit on one SM

  template <class Kernel>
  static resident_grid of(Kernel kernel, int threads, const char* who) {
    int device = 0, coop = 0;
    resident_grid r;
    TROPIC_CUDA_CHECK(cudaGetDevice(&device));
    TROPIC_CUDA_CHECK(cudaDeviceGetAttribute(&r.sms, cudaDevAttrMultiProcessorCount, device));
    TROPIC_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device));
    TROPIC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.per_sm, kernel, threads, 0));
    if (r.per_sm < 1 || !coop)
      throw error(error_code::cuda,
                  std::string(who) + ": the device cannot keep the persistent kernel resident");
    return r;
  }

  // The grid: every resident block, a manager and workers, with at most `bound` workers for
  // each bound given (0: none), and at least one worker.
  unsigned blocks(std::initializer_list<unsigned> max_workers) const {
    unsigned grid = static_cast<unsigned>(per_sm) * static_cast<unsigned>(sms);
    for (const unsigned bound : max_workers)
      if (bound > 0) grid = std::min(grid, bound + 1);
    return std::max(grid, 2u);
  }
};

// Launches kernel(args) on every block of `grid` at once (cooperative launch).
template <class Args>
void launch_cooperative(void (*kernel)(Args), unsigned grid, int threads, Args& args,
                        cudaStream_t stream) {
  void* params[] = {&args};
  TROPIC_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), dim3(grid),
                                                dim3(threads), params, 0, stream));
}

// Pinned host memory (pinned_allocate) for the host-abort flag and for control snapshots. Not a
// pinned_buffer: when a kernel ignores the host timeout it still reads the flag, so on that path
// the memory is leaked instead of going back to the cache for another solve to write.
template <class Control>
struct pinned_host_area {
  struct layout {
    Control snapshot;
    int abort_flag;
  };
  int* abort_flag = nullptr;
  Control* snapshot = nullptr;
  layout* base = nullptr;
  pinned_host_area() {
    base = static_cast<layout*>(pinned_allocate(sizeof(layout)));
    snapshot = &base->snapshot;
    abort_flag = &base->abort_flag;
  }
  pinned_host_area(const pinned_host_area&) = delete;
  pinned_host_area& operator=(const pinned_host_area&) = delete;
  ~pinned_host_area() {
    pinned_release(base, sizeof(layout));
  }
  void leak() noexcept { base = nullptr; }
};

// Copies the control block while the kernel may still be running: on a stream of its own (no
// dependency on the kernel's stream), with a bounded wait. False if the copy did not complete.
template <class Control>
bool peek_control(const Control* device_ctl, Control* host, double wait_ms) {
  cudaStream_t s = nullptr;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return false;
  bool ok =
      cudaMemcpyAsync(host, device_ctl, sizeof(Control), cudaMemcpyDeviceToHost, s) == cudaSuccess;
  const auto t0 = std::chrono::steady_clock::now();
  while (ok) {
    const cudaError_t st = cudaStreamQuery(s);
    if (st == cudaSuccess) break;
    if (st != cudaErrorNotReady ||
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() >
            wait_ms)
      ok = false;
    else
      std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  cudaStreamDestroy(s);  // returns at once; a copy still pending is released when it completes
  return ok;
}

// Waits for the event `done` that follows the kernel. Past limit_ms it raises *abort_flag
// (pinned, system scope, release) for the kernel's manager to see; when the kernel is still
// running give_up_after_ms later, it calls give_up(), which must throw (and must not free what
// the kernel still uses). Any other error of the event destroys it and throws.
template <class GiveUp>
void wait_or_abort(cudaEvent_t done, double limit_ms, double give_up_after_ms, int* abort_flag,
                   GiveUp&& give_up) {
  const auto t0 = std::chrono::steady_clock::now();
  bool raised = false;
  for (;;) {
    const cudaError_t st = cudaEventQuery(done);
    if (st == cudaSuccess) return;
    if (st != cudaErrorNotReady) {
      cudaEventDestroy(done);
      TROPIC_CUDA_CHECK(st);
    }
    const double waited =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!raised && waited > limit_ms) {
      cuda::atomic_ref<int, cuda::thread_scope_system>(abort_flag[0])
          .store(1, cuda::memory_order_release);
      raised = true;
    }
    if (raised && waited > limit_ms + give_up_after_ms) give_up();
    std::this_thread::sleep_for(std::chrono::microseconds(waited < 5 ? 5 : 50));
  }
}

// The entry points of a persistent-kernel algorithm `name` (adds, rdbs): name_sssp, sssp()'s,
// is name_sssp_configured with the defaults (name_config{}); TROPIC_PERSISTENT_INSTANTIATE
// instantiates both for weight W.
#define TROPIC_PERSISTENT_DEFAULT_ENTRY(name)                                            \
  template <class W>                                                                     \
  result<W> name##_sssp(const device_matrix<W>& a, vertex source, const options& opts) { \
    return name##_sssp_configured(a, source, opts, name##_config{}, nullptr);            \
  }
#define TROPIC_PERSISTENT_INSTANTIATE(name, W)                                                  \
  template result<W> name##_sssp<W>(const device_matrix<W>&, vertex, const options&);           \
  template result<W> name##_sssp_configured<W>(const device_matrix<W>&, vertex, const options&, \
                                               const name##_config&, name##_report*);

// A kernel's status word as text: names[s], or "unknown" outside the table.
template <std::size_t N>
const char* status_text(const char* const (&names)[N], int s) {
  return s >= 0 && static_cast<std::size_t>(s) < N ? names[s] : "unknown";
}

}  // namespace tropic::detail::persistent
