// The optimality certificate of a result over a distributed matrix (issue 38, item 4): the
// certificate of certify.cpp over the matrix's 1D row partition, as certify_rows and
// certify_combine define it. Each part's rows come to the host in turn and are checked there by
// all cores, so the whole graph never sits in one host array: a graph generated on its GPUs,
// too large for the CPU reference, is certified part by part.
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "distributed_nccl.hpp"
#include "tropic/distributed.hpp"
#include "tropic/error.hpp"

namespace tropic {

template <class W>
std::string certify(const distributed_matrix<W>& a, vertex source, const result<W>& r) {
  const detail::current_device_guard keep_device;
  const vertex n = a.rows();
  std::vector<certificate_part> parts;
  for (std::size_t p = 0; p < a.parts(); ++p) {
    TROPIC_CUDA_CHECK(cudaSetDevice(a.devices()[p]));
    const csr_view<W> view = a.part(p).view();
    // Part p as a CSR of n rows, those outside its range empty; its rows are weight-sorted,
    // which the certificate does not mind.
    csr<W> g;
    g.n = n;
    g.row_offsets.resize(std::size_t(n) + 1);
    g.columns.resize(view.arcs);
    g.weights.resize(view.arcs);
    TROPIC_CUDA_CHECK(cudaMemcpy(g.row_offsets.data(), view.row_offsets,
                                 g.row_offsets.size() * sizeof(arc_index), cudaMemcpyDeviceToHost));
    if (view.arcs) {
      TROPIC_CUDA_CHECK(cudaMemcpy(g.columns.data(), view.columns, view.arcs * sizeof(vertex),
                                   cudaMemcpyDeviceToHost));
      TROPIC_CUDA_CHECK(cudaMemcpy(g.weights.data(), view.weights, view.arcs * sizeof(W),
                                   cudaMemcpyDeviceToHost));
    }
    parts.push_back(certify_rows(g, source, r, a.ranges()[p]));
  }
  return certify_combine(source, r, parts);
}

#define TROPIC_INSTANTIATE(W)                                                          \
  template std::string certify<W>(const distributed_matrix<W>&, vertex, const result<W>&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic
