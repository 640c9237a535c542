// Explicit instantiation of the many-source operators for std::uint64_t (one small file per type).
#include "../mxm.cuh"

namespace tropic {
TROPIC_INSTANTIATE_MATRIX_OPS(std::uint64_t)
TROPIC_INSTANTIATE_MXM(tropic::min_plus<std::uint64_t>, std::uint64_t)
TROPIC_INSTANTIATE_MXM_CLOSURE(tropic::min_plus<std::uint64_t>, std::uint64_t)
}  // namespace tropic
