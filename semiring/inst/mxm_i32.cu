// Explicit instantiation of the many-source operators for std::int32_t (one small file per type).
#include "../mxm.cuh"

namespace tropic {
TROPIC_INSTANTIATE_MATRIX_OPS(std::int32_t)
TROPIC_INSTANTIATE_MXM(tropic::min_plus<std::int32_t>, std::int32_t)
TROPIC_INSTANTIATE_MXM_CLOSURE(tropic::min_plus<std::int32_t>, std::int32_t)
}  // namespace tropic
