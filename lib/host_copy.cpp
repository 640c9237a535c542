// copy_to_host (tropic/device_memory.hpp): device to pageable host memory in pinned pieces. A
// few host threads each run their own pipeline (a stream, a pinned piece, a DMA then a memcpy,
// pieces t, t + T, t + 2T, ...), so the copies of some overlap the DMAs of others with no
// barrier between pieces.
#if defined(TROPIC_HAVE_CUDA)

#include <algorithm>
#include <cstring>
#include <exception>
#include <mutex>

#include "tropic/detail/openmp.hpp"
#include "tropic/device_memory.hpp"

namespace tropic {

namespace {

// A piece: a DMA's start-up small beside it (~75 us at 55 GB/s); the threads' pieces are the
// pinned memory kept in pinned_allocate's cache.
constexpr std::size_t piece_bytes = std::size_t(4) << 20;
// Threads: one thread's memcpy runs at ~12 GB/s into touched memory and ~2 GB/s into fresh (its
// first-touch faults), so 16 keep up with the link; a team of all 64 of a host's threads, woken
// for every piece, was 10x slower than 16 (bench/results/h200x4-run36).
constexpr int max_threads = 16;

class event {
 public:
  event() { TROPIC_CUDA_CHECK(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming)); }
  event(const event&) = delete;
  event& operator=(const event&) = delete;
  ~event() { cudaEventDestroy(e_); }
  operator cudaEvent_t() const noexcept { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

// Pieces t, t + stride, ... of the download, through one pinned piece on its own stream.
void copy_pieces(char* dst, const char* src, std::size_t bytes, std::size_t t,
                 std::size_t stride) {
  const std::size_t pieces = (bytes + piece_bytes - 1) / piece_bytes;
  if (t >= pieces) return;
  cuda_stream stream;
  pinned_buffer<char> stage(piece_bytes);
  try {
    for (std::size_t i = t; i < pieces; i += stride) {
      const std::size_t at = i * piece_bytes, length = std::min(piece_bytes, bytes - at);
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(stage.data(), src + at, length, cudaMemcpyDeviceToHost,
                                        stream));
      stream.synchronize();
      std::memcpy(dst + at, stage.data(), length);
    }
  } catch (...) {
    cudaStreamSynchronize(stream);  // no DMA may still write the piece once it is released
    throw;
  }
}

}  // namespace

void copy_to_host(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  // The source is complete on `stream`; the pieces then move on streams of their own.
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  const int threads = static_cast<int>(std::min<std::size_t>(
      std::min(detail::worker_threads(), max_threads), bytes / piece_bytes));
  if (threads < 2) {
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream));
    TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  int device = 0;
  TROPIC_CUDA_CHECK(cudaGetDevice(&device));
  std::exception_ptr failure;
  std::mutex guard;
  TROPIC_OMP(parallel num_threads(threads))
  {
    // The team may be smaller than asked (nested in a caller's region, OMP_DYNAMIC,
    // OMP_THREAD_LIMIT): the pieces are dealt over the threads it has.
#if defined(_OPENMP)
    const std::size_t t = std::size_t(omp_get_thread_num()),
                      team = std::size_t(omp_get_num_threads());
#else
    const std::size_t t = 0, team = 1;
#endif
    try {
      TROPIC_CUDA_CHECK(cudaSetDevice(device));  // a pool thread's current device may differ
      copy_pieces(static_cast<char*>(dst), static_cast<const char*>(src), bytes, t, team);
    } catch (...) {
      std::lock_guard<std::mutex> lock(guard);
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace tropic

#endif  // TROPIC_HAVE_CUDA
