// CUDA error translation and device-memory accounting.
#include <string>

#include "tropic/device_memory.hpp"

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

std::pair<std::size_t, std::size_t> device_memory_info() {
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();
    return {0, 0};
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
