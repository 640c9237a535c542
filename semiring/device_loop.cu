// The device-driven loops' worklist (tropic/device_loop.hpp).
#include "tropic/device_loop.hpp"

namespace tropic {

device_worklist::device_worklist(vertex capacity, cudaStream_t stream)
    : indices_(capacity, stream), count_(1, stream) {
  TROPIC_CUDA_CHECK(cudaMemsetAsync(count_.data(), 0, sizeof(unsigned long long), stream));
}

}  // namespace tropic
