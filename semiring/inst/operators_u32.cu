// Explicit instantiation of the operators for std::uint32_t (one small file per type bounds compile time).
#include "../device_loop.cuh"

namespace tropic {
TROPIC_INSTANTIATE_VECTOR_OPS(std::uint32_t)
TROPIC_INSTANTIATE_DEVICE_LOOP(std::uint32_t)
TROPIC_INSTANTIATE_SEMIRING(tropic::min_plus<std::uint32_t>, std::uint32_t)

}  // namespace tropic
