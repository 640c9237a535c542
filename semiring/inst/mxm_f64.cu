// Explicit instantiation of the many-source operators for double (one small file per type).
#include "../mxm.cuh"

namespace tropic {
TROPIC_INSTANTIATE_MATRIX_OPS(double)
TROPIC_INSTANTIATE_MXM(tropic::min_plus<double>, double)
TROPIC_INSTANTIATE_MXM_CLOSURE(tropic::min_plus<double>, double)
TROPIC_INSTANTIATE_MXM(tropic::plus_times<double>, double)
}  // namespace tropic
