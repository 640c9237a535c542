// Explicit instantiation of the many-source operators for float (one small file per type).
#include "../mxm.cuh"

namespace tropic {
TROPIC_INSTANTIATE_MATRIX_OPS(float)
TROPIC_INSTANTIATE_MXM(tropic::min_plus<float>, float)
TROPIC_INSTANTIATE_MXM_CLOSURE(tropic::min_plus<float>, float)
TROPIC_INSTANTIATE_MXM(tropic::plus_times<float>, float)
}  // namespace tropic
