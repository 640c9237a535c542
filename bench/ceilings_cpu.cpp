// Without CUDA there is no device bandwidth that could bound a GPU algorithm: no ceilings.
// CUDA builds define the measure_*ceilings() functions in bench/ceilings.cu instead.
#include "ceilings.hpp"

#if !defined(TROPIC_HAVE_CUDA)
namespace tropic::bench {

std::vector<ceiling_row> measure_ceilings(const csr<float>&) { return {}; }
std::vector<ceiling_row> measure_double_spmv_ceilings(const csr<double>&) { return {}; }

}  // namespace tropic::bench
#endif
