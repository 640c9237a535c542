// Explicit instantiation of the operators for float (one small file per type bounds compile time).
#include "../device_loop.cuh"

namespace tropic {
TROPIC_INSTANTIATE_VECTOR_OPS(float)
TROPIC_INSTANTIATE_DEVICE_LOOP(float)
TROPIC_INSTANTIATE_SEMIRING(tropic::min_plus<float>, float)
TROPIC_INSTANTIATE_SEMIRING(tropic::plus_times<float>, float)
}  // namespace tropic
