// gpu_context: temporaries, counters and stamps shared by the operators of one solve.
#include "tropic/vector.hpp"

namespace tropic {

void* gpu_context::temp(std::size_t bytes) {
  if (temp_.size() < bytes) {
    // Grow by half again so a frontier that creeps up does not reallocate every step.
    temp_ = device_buffer<unsigned char>(bytes + bytes / 2 + 1024, stream_);
  }
  return temp_.data();
}

std::uint64_t* gpu_context::zeroed_counter() {
  if (counter_device_.size() == 0) counter_device_ = device_buffer<std::uint64_t>(1, stream_);
  TROPIC_CUDA_CHECK(cudaMemsetAsync(counter_device_.data(), 0, sizeof(std::uint64_t), stream_));
  return counter_device_.data();
}

std::uint64_t gpu_context::read_counter() {
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(counter_.data(), counter_device_.data(), sizeof(std::uint64_t),
                                    cudaMemcpyDeviceToHost, stream_));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream_));
  ++round_trips;
  return counter_[0];
}

std::uint32_t* gpu_context::stamps(vertex n) {
  if (stamps_.size() < n) {
    stamps_ = device_buffer<std::uint32_t>(n, stream_);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(stamps_.data(), 0, std::size_t(n) * sizeof(std::uint32_t), stream_));
    stamp_ = 0;
  }
  return stamps_.data();
}

unsigned long long* gpu_context::arcs_scanned() {
  if (arcs_scanned_.size() == 0) {
    arcs_scanned_ = device_buffer<unsigned long long>(1, stream_);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(arcs_scanned_.data(), 0, sizeof(unsigned long long), stream_));
  }
  return arcs_scanned_.data();
}

std::uint64_t gpu_context::read_arcs_scanned() {
  if (arcs_scanned_.size() == 0) return 0;
  unsigned long long h = 0;
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(&h, arcs_scanned_.data(), sizeof h, cudaMemcpyDeviceToHost, stream_));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return h;
}

}  // namespace tropic
