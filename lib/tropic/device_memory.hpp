// RAII device memory and CUDA error checking (GPU builds only). Usable from plain C++: only the
// CUDA runtime's C API is included.
#pragma once

#if !defined(TROPIC_HAVE_CUDA)
#error "tropic/device_memory.hpp needs a CUDA build (TROPIC_HAVE_CUDA)"
#endif

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tropic/error.hpp"

namespace tropic {

// Throws tropic::error: out_of_memory for allocation failures, cuda for everything else.
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line);

#define TROPIC_CUDA_CHECK(call)                                                        \
  do {                                                                                 \
    cudaError_t tropic_status_ = (call);                                               \
    if (tropic_status_ != cudaSuccess)                                                 \
      ::tropic::throw_cuda_error(tropic_status_, #call, __FILE__, __LINE__);           \
  } while (0)

// tropic's stream-ordered memory pool on the current device, created on first use; every
// device_buffer draws from it. Memory freed into it stays reserved for tropic's next allocations
// (release threshold: unlimited): with the default threshold of 0 every host round trip of a
// solve, which synchronises, hands the memory back, and the buffers a solve frees and allocates
// again are mapped afresh (bench/results/h100-run22/sweeps/ab-2-pool-kron.txt).
// The CUDA default pool, which the caller may use, is left as it is.
cudaMemPool_t memory_pool();

// Waits for the current device and returns the memory tropic's pool holds unused to the driver.
// device_buffer calls it when an allocation fails, then tries once more.
void release_cached_device_memory();

// Free and total device memory of the current device, in bytes; free counts the memory tropic's
// pool holds unused, which its next allocations take first.
std::pair<std::size_t, std::size_t> device_memory_info();

// Throws out_of_memory naming `what`, the bytes needed and the bytes free when `bytes` does not
// fit in the current device's free memory (with a small reserve for CUB temporaries).
void require_device_memory(std::size_t bytes, const std::string& what);

// Stream-ordered allocation from memory_pool() (cudaMallocFromPoolAsync); when the device is
// out of memory, the pool's unused memory is released and the allocation tried once more.
void* pool_allocate(std::size_t bytes, cudaStream_t stream);

// A typed device allocation, stream-ordered (pool_allocate / cudaFreeAsync), move-only.
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  device_buffer(std::size_t count, cudaStream_t stream) : size_(count), stream_(stream) {
    if (count > 0) data_ = static_cast<T*>(pool_allocate(count * sizeof(T), stream));
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept { swap(o); }
  device_buffer& operator=(device_buffer&& o) noexcept {
    device_buffer(std::move(o)).swap(*this);
    return *this;
  }
  ~device_buffer() {
    if (data_) cudaFreeAsync(data_, stream_);  // cannot throw from a destructor
  }
  void swap(device_buffer& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(stream_, o.stream_);
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  cudaStream_t stream() const noexcept { return stream_; }

  void upload(const T* host, std::size_t count) {
    if (count) TROPIC_CUDA_CHECK(cudaMemcpyAsync(data_, host, count * sizeof(T),
                                                 cudaMemcpyHostToDevice, stream_));
  }
  void download(T* host, std::size_t count) const {
    if (count) TROPIC_CUDA_CHECK(cudaMemcpyAsync(host, data_, count * sizeof(T),
                                                 cudaMemcpyDeviceToHost, stream_));
    TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  std::vector<T> to_host() const {
    std::vector<T> h(size_);
    download(h.data(), size_);
    return h;
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
  cudaStream_t stream_ = nullptr;
};

// Page-locked host memory from a process-wide cache: cudaMallocHost costs tens of microseconds
// and cudaFreeHost waits for the whole device, more than a small solve's kernels take; a solve
// needs a few words of it (the counters its host polls), so released blocks are kept, by size
// class, for the next solve and never given back. pinned_release of memory that a kernel may
// still write: the caller's to avoid (such memory is leaked instead, persistent.cuh).
void* pinned_allocate(std::size_t bytes);
void pinned_release(void* p, std::size_t bytes) noexcept;

// Device memory to pageable host memory (a std::vector, a numpy array) at the link's speed, for
// large results: a pageable cudaMemcpy is staged by the driver on one host thread, which also
// takes the first-touch faults of freshly allocated output. Above a few MB this copy runs
// through two pinned pieces instead, the next piece's DMA in flight while all host threads copy
// the last one into place. Synchronous: returns when dst holds the bytes.
void copy_to_host(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);

// Page-locked host memory for counters the host polls once per step (pinned_allocate).
template <class T>
class pinned_buffer {
 public:
  explicit pinned_buffer(std::size_t count = 1)
      : data_(static_cast<T*>(pinned_allocate(count * sizeof(T)))), size_(count) {}
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;
  ~pinned_buffer() { pinned_release(data_, size_ * sizeof(T)); }
  T* data() noexcept { return data_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// An owned stream (or the caller's, not owned).
class cuda_stream {
 public:
  cuda_stream() { TROPIC_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  cuda_stream(const cuda_stream&) = delete;
  cuda_stream& operator=(const cuda_stream&) = delete;
  ~cuda_stream() { cudaStreamDestroy(s_); }
  operator cudaStream_t() const noexcept { return s_; }
  void synchronize() const { TROPIC_CUDA_CHECK(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_ = nullptr;
};

// Times stream work with CUDA events.
class cuda_timer {
 public:
  explicit cuda_timer(cudaStream_t s) : s_(s) {
    TROPIC_CUDA_CHECK(cudaEventCreate(&start_));
    TROPIC_CUDA_CHECK(cudaEventCreate(&stop_));
    TROPIC_CUDA_CHECK(cudaEventRecord(start_, s_));
  }
  cuda_timer(const cuda_timer&) = delete;
  cuda_timer& operator=(const cuda_timer&) = delete;
  ~cuda_timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  double elapsed_ms() {  // synchronises on the stop event
    TROPIC_CUDA_CHECK(cudaEventRecord(stop_, s_));
    TROPIC_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    TROPIC_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaStream_t s_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

}  // namespace tropic
