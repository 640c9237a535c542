// CUDA error translation, tropic's memory pool and device-memory accounting.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "tropic/device_memory.hpp"
#include "tropic/detail/allocation_hooks.hpp"

namespace tropic {

void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  std::string what = std::string(call) + " failed at " + file + ":" + std::to_string(line) +
                     ": " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")";
  if (status == cudaErrorMemoryAllocation) {
    auto [free_b, total_b] = device_memory_info();
    what += "; device memory free " + std::to_string(free_b) + " of " + std::to_string(total_b) +
            " bytes";
    throw error(error_code::out_of_memory, what);
  }
  if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver)
    throw error(error_code::no_device, what);
  throw error(error_code::cuda, what);
}

cudaMemPool_t memory_pool() {
  static std::mutex guard;
  static std::vector<cudaMemPool_t> pools;  // by device; kept to the process's end
  int device = 0;
  TROPIC_CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(guard);
  if (pools.size() <= std::size_t(device)) pools.resize(std::size_t(device) + 1, nullptr);
  if (!pools[device]) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t pool = nullptr;
    TROPIC_CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
    std::uint64_t keep = ~std::uint64_t(0);
    TROPIC_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    pools[device] = pool;
  }
  return pools[device];
}

void release_cached_device_memory() {
  TROPIC_CUDA_CHECK(cudaDeviceSynchronize());  // frees still queued on streams complete first
  TROPIC_CUDA_CHECK(cudaMemPoolTrimTo(memory_pool(), 0));
}

namespace {
std::atomic<std::uint64_t> allocations{0};
std::atomic<std::uint64_t> fail_at{0};  // the allocation count that fails; 0: none
std::atomic<std::uint64_t> injected{0};
}  // namespace

namespace detail {
void fail_allocation_after(std::uint64_t n) noexcept {
  fail_at.store(n ? allocations.load() + n : 0);
}
std::uint64_t allocation_count() noexcept { return allocations.load(); }
std::uint64_t injected_allocation_failures() noexcept { return injected.load(); }
}  // namespace detail

void* pool_allocate(std::size_t bytes, cudaStream_t stream) {
  // The failing call's text names the bytes asked for (built only on failure).
  auto call = [bytes](const char* note) {
    return "cudaMallocFromPoolAsync of " + std::to_string(bytes) + " bytes" + note;
  };
  const std::uint64_t count = allocations.fetch_add(1) + 1;
  std::uint64_t armed = count;
  if (fail_at.load() == count && fail_at.compare_exchange_strong(armed, 0)) {
    injected.fetch_add(1);
    throw_cuda_error(cudaErrorMemoryAllocation, call(" (injected failure)").c_str(), __FILE__,
                     __LINE__);
  }
  void* p = nullptr;
  cudaError_t status = cudaMallocFromPoolAsync(&p, bytes, memory_pool(), stream);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    release_cached_device_memory();
    status = cudaMallocFromPoolAsync(&p, bytes, memory_pool(), stream);
  }
  if (status != cudaSuccess) throw_cuda_error(status, call("").c_str(), __FILE__, __LINE__);
  return p;
}

namespace {
// Size classes: powers of two from 64 bytes, one free list each.
std::size_t pinned_class(std::size_t bytes) noexcept {
  std::size_t size = 64;
  while (size < bytes) size *= 2;
  return size;
}
std::mutex pinned_guard;
std::vector<std::pair<std::size_t, std::vector<void*>>>& pinned_free_lists() {
  static auto* lists = new std::vector<std::pair<std::size_t, std::vector<void*>>>();
  return *lists;  // never destroyed: the CUDA runtime may be gone at exit
}
}  // namespace

void* pinned_allocate(std::size_t bytes) {
  const std::size_t size = pinned_class(bytes);
  {
    std::lock_guard<std::mutex> lock(pinned_guard);
    for (auto& [cls, blocks] : pinned_free_lists())
      if (cls == size && !blocks.empty()) {
        void* p = blocks.back();
        blocks.pop_back();
        return p;
      }
  }
  void* p = nullptr;
  TROPIC_CUDA_CHECK(cudaMallocHost(&p, size));
  return p;
}

void pinned_release(void* p, std::size_t bytes) noexcept {
  if (!p) return;
  const std::size_t size = pinned_class(bytes);
  try {
    std::lock_guard<std::mutex> lock(pinned_guard);
    auto& lists = pinned_free_lists();
    for (auto& [cls, blocks] : lists)
      if (cls == size) {
        blocks.push_back(p);
        return;
      }
    lists.push_back({size, {p}});
  } catch (...) {  // no memory for the list: the block goes back to the driver
    cudaFreeHost(p);
  }
}

std::pair<std::size_t, std::size_t> device_memory_info() {
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();
    return {0, 0};
  }
  try {  // an error message's helper too: it must not throw
    std::uint64_t reserved = 0, used = 0;
    const cudaMemPool_t pool = memory_pool();
    if (cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) ==
            cudaSuccess &&
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess) {
      if (reserved > used) free_b += std::size_t(reserved - used);
    } else {
      cudaGetLastError();
    }
  } catch (const error&) {
  }
  return {free_b, total_b};
}

void require_device_memory(std::size_t bytes, const std::string& what) {
  auto [free_b, total_b] = device_memory_info();
  // Leave room for CUB temporaries and the CUDA context's own allocations.
  const std::size_t reserve = std::size_t(256) << 20;
  if (bytes + reserve > free_b)
    throw error(error_code::out_of_memory,
                what + " needs " + std::to_string(bytes) + " bytes of device memory (plus a " +
                    std::to_string(reserve >> 20) + " MiB reserve) but only " +
                    std::to_string(free_b) + " of " + std::to_string(total_b) +
                    " bytes are free on the device");
}

}  // namespace tropic
