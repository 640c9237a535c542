// Explicit instantiation of the operators for std::int64_t (one small file per type bounds compile time).
#include "../device_loop.cuh"

namespace tropic {
TROPIC_INSTANTIATE_VECTOR_OPS(std::int64_t)
TROPIC_INSTANTIATE_DEVICE_LOOP(std::int64_t)
TROPIC_INSTANTIATE_SEMIRING(tropic::min_plus<std::int64_t>, std::int64_t)

}  // namespace tropic
