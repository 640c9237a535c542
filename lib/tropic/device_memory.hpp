// RAII device memory and CUDA error checking (GPU builds only). Usable from plain C++: only the
// CUDA runtime's C API is included.
#pragma once

#if !defined(TROPIC_HAVE_CUDA)
#error "tropic/device_memory.hpp needs a CUDA build (TROPIC_HAVE_CUDA)"
#endif

#include <cuda_runtime_api.h>

#include <cstddef>
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

// Free and total device memory of the current device, in bytes.
std::pair<std::size_t, std::size_t> device_memory_info();

// Throws out_of_memory naming `what`, the bytes needed and the bytes free when `bytes` does not
// fit in the current device's free memory (with a small reserve for CUB temporaries).
void require_device_memory(std::size_t bytes, const std::string& what);

// A typed device allocation, stream-ordered (cudaMallocAsync / cudaFreeAsync), move-only.
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  device_buffer(std::size_t count, cudaStream_t stream) : size_(count), stream_(stream) {
    if (count > 0) {
      void* p = nullptr;
      TROPIC_CUDA_CHECK(cudaMallocAsync(&p, count * sizeof(T), stream));
      data_ = static_cast<T*>(p);
    }
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

// Page-locked host memory for counters the host polls once per step.
template <class T>
class pinned_buffer {
 public:
  explicit pinned_buffer(std::size_t count = 1) : size_(count) {
    void* p = nullptr;
    TROPIC_CUDA_CHECK(cudaMallocHost(&p, count * sizeof(T)));
    data_ = static_cast<T*>(p);
  }
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;
  ~pinned_buffer() { cudaFreeHost(data_); }
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
