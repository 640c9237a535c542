// gpu_context: temporaries, counters and stamps shared by the operators of one solve.
#include "tropic/vector.hpp"

#include "tropic/error.hpp"

namespace tropic {

void* gpu_context::temp(std::size_t bytes) {
  if (temp_.size() < bytes) {
    // Grow by half again so a frontier that creeps up does not reallocate every step.
    temp_ = device_buffer<unsigned char>(bytes + bytes / 2 + 1024, stream_);
  }
  return temp_.data();
}

std::uint64_t* gpu_context::zeroed_counters(std::size_t words) {
  if (words > counter_words)
    throw error(error_code::invalid_value, "gpu_context: more counter words than it keeps");
  if (counter_device_.size() == 0)
    counter_device_ = device_buffer<std::uint64_t>(counter_words, stream_);
  TROPIC_CUDA_CHECK(
      cudaMemsetAsync(counter_device_.data(), 0, words * sizeof(std::uint64_t), stream_));
  return counter_device_.data();
}

const std::uint64_t* gpu_context::read_counters(std::size_t words) {
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(counter_.data(), counter_device_.data(),
                                    words * sizeof(std::uint64_t), cudaMemcpyDeviceToHost,
                                    stream_));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream_));
  ++round_trips;
  return counter_.data();
}

std::uint64_t gpu_context::read_word(const std::uint64_t* device_word) {
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(counter_.data(), device_word, sizeof(std::uint64_t),
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

std::uint32_t* gpu_context::device_stamp() {
  if (device_stamp_.size() == 0) {
    device_stamp_ = device_buffer<std::uint32_t>(1, stream_);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(device_stamp_.data(), 0xff, sizeof(std::uint32_t), stream_));
  }
  return device_stamp_.data();
}

unsigned long long* gpu_context::loop_statistics() {
  if (loop_statistics_.size() == 0) {
    loop_statistics_ = device_buffer<unsigned long long>(3, stream_);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(loop_statistics_.data(), 0, 3 * sizeof(unsigned long long), stream_));
  }
  return loop_statistics_.data();
}

unsigned long long* gpu_context::closure_scratch() {
  if (closure_scratch_.size() == 0) {
    closure_scratch_ = device_buffer<unsigned long long>(1, stream_);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(closure_scratch_.data(), 0, sizeof(unsigned long long), stream_));
  }
  return closure_scratch_.data();
}

void* gpu_context::pull_blocks(std::size_t bytes) {
  if (pull_blocks_.size() < bytes) pull_blocks_ = device_buffer<unsigned char>(bytes, stream_);
  return pull_blocks_.data();
}

void* gpu_context::pull_dense_input(std::size_t bytes) {
  if (pull_dense_input_.size() < bytes)
    pull_dense_input_ = device_buffer<unsigned char>(bytes, stream_);
  return pull_dense_input_.data();
}

void gpu_context::read_loop_statistics(std::uint64_t& iterations, std::uint64_t& vertices,
                                       std::uint64_t* buckets) {
  iterations = vertices = 0;
  if (buckets) *buckets = 0;
  if (loop_statistics_.size() == 0) return;
  unsigned long long h[3] = {0, 0, 0};
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(h, loop_statistics_.data(), sizeof h, cudaMemcpyDeviceToHost, stream_));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream_));
  iterations = h[0];
  vertices = h[1];
  if (buckets) *buckets = h[2];
}

}  // namespace tropic
