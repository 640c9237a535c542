// Explicit instantiation of the operators for std::uint64_t (one small file per type bounds compile time).
#include "../device_loop.cuh"

namespace tropic {
TROPIC_INSTANTIATE_VECTOR_OPS(std::uint64_t)
TROPIC_INSTANTIATE_DEVICE_LOOP(std::uint64_t)
TROPIC_INSTANTIATE_SEMIRING(tropic::min_plus<std::uint64_t>, std::uint64_t)

}  // namespace tropic
