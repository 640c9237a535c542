// Explicit instantiation of the many-source operators for std::uint32_t (one small file per type).
#include "../mxm.cuh"

namespace tropic {
TROPIC_INSTANTIATE_MATRIX_OPS(std::uint32_t)
TROPIC_INSTANTIATE_MXM(tropic::min_plus<std::uint32_t>, std::uint32_t)
TROPIC_INSTANTIATE_MXM_CLOSURE(tropic::min_plus<std::uint32_t>, std::uint32_t)
}  // namespace tropic
