// Explicit instantiation of the operators for double (one small file per type bounds compile time).
#include "../device_loop.cuh"

namespace tropic {
TROPIC_INSTANTIATE_VECTOR_OPS(double)
TROPIC_INSTANTIATE_DEVICE_LOOP(double)
TROPIC_INSTANTIATE_SEMIRING(tropic::min_plus<double>, double)
TROPIC_INSTANTIATE_SEMIRING(tropic::plus_times<double>, double)
}  // namespace tropic
