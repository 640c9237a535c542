// The optimality certificate of a result over a distributed matrix (issue 38, item 4): the
// certificate of certify.cpp over the matrix's 1D row partition, certify_rows on each part and
// certify_combine once. Each part checks its rows on its own GPU (certify_kernels.cuh) against the
// distances and parents uploaded there, so n bytes of marks per part come back instead of the
// part's arcs going to the host. certify_on_host, the reference, checks each part on the host.
#include <cuda_runtime.h>

#include <optional>
#include <string>
#include <vector>

#include "certify_kernels.cuh"
#include "distributed_nccl.hpp"
#include "distributed_ranks.hpp"
#include "tropic/detail/certify_part.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/distributed.hpp"
#include "tropic/error.hpp"

namespace tropic {

namespace detail {

namespace {

using namespace certificate;

// Device memory left free beside the certificate's arrays, as require_device_memory leaves.
constexpr std::size_t device_reserve = std::size_t(256) << 20;
// Grid size cap for the grid-stride loops; more blocks only queue.
constexpr std::uint64_t max_blocks = 1 << 16;

unsigned blocks_for(std::uint64_t items, std::uint64_t per_block) {
  const std::uint64_t blocks = (items + per_block - 1) / per_block;
  return static_cast<unsigned>(blocks == 0 ? 1 : blocks < max_blocks ? blocks : max_blocks);
}

// Row u of the part, brought to the host alone, worded by the host check.
template <class W>
std::string violation_in_row(const csr_view<W>& a, vertex source, const result<W>& r, vertex u,
                             cudaStream_t stream) {
  arc_index bounds[2];
  TROPIC_CUDA_CHECK(
      cudaMemcpyAsync(bounds, a.row_offsets + u, sizeof bounds, cudaMemcpyDeviceToHost, stream));
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  const arc_index degree = bounds[1] - bounds[0];
  std::vector<vertex> columns(degree);
  std::vector<W> weights(degree);
  if (degree) {
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(columns.data(), a.columns + bounds[0],
                                      degree * sizeof(vertex), cudaMemcpyDeviceToHost, stream));
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(weights.data(), a.weights + bounds[0], degree * sizeof(W),
                                      cudaMemcpyDeviceToHost, stream));
    TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  std::string message = row_violation(a.n, source, r, u, columns.data(), weights.data(), degree);
  if (message.empty())  // one definition of every check runs on both sides: a bug in tropic
    throw error(error_code::cuda, "certify: the GPU check finds a violation in row " +
                                      std::to_string(u) + " that the host check does not");
  return message;
}

}  // namespace

template <class W>
std::optional<certificate_part> certify_part_on_device(const device_matrix<W>& part, vertex source,
                                                       const result<W>& r, row_range rows) {
  const vertex n = part.rows();
  certificate_part out;
  out.rows = rows;
  out.violation = rows_problem(n, source, r, rows);
  if (!out.violation.empty()) return out;
  if (rows.empty()) {
    out.marks.assign(n, 0);
    return out;
  }
  const bool with_parents = !r.parents.empty();
  const std::size_t words = (std::size_t(n) + 3) / 4;
  const std::size_t bytes = n * sizeof(W) + (with_parents ? n * sizeof(std::int64_t) : 0) +
                            words * sizeof(unsigned) + sizeof(vertex);
  // Without room for them the caller checks this part on the host instead (certify below).
  if (bytes + device_reserve > device_memory_info().first) return std::nullopt;

  TROPIC_CUDA_CHECK(cudaStreamSynchronize(part.stream()));  // the part's rows are in place
  const cuda_stream stream;  // declared first: the buffers free on it before it goes
  device_buffer<W> d(n, stream);
  device_buffer<std::int64_t> parents(with_parents ? n : 0, stream);
  device_buffer<unsigned> marks(words, stream);
  device_buffer<vertex> first(1, stream);
  d.upload(r.distances.data(), n);
  if (with_parents) parents.upload(r.parents.data(), n);
  TROPIC_CUDA_CHECK(cudaMemsetAsync(marks.data(), 0, marks.bytes(), stream));
  first.upload(&rows.end, 1);

  const check_args<W> k{part.view(),    rows,         source,      d.data(),
                        parents.data(), marks.data(), first.data()};
  check_rows<W><<<blocks_for(rows.size(), block_threads), block_threads, 0, stream>>>(k);
  TROPIC_CUDA_CHECK(cudaGetLastError());
  // part.arcs() bounds the range's arcs (a distributed part's are all in its range).
  check_arcs<W>
      <<<blocks_for(part.arcs(), block_threads * arcs_per_thread), block_threads, 0, stream>>>(k);
  TROPIC_CUDA_CHECK(cudaGetLastError());
  vertex least = rows.end;
  first.download(&least, 1);
  if (least != rows.end) {  // the marks go unread: certify_combine reports the violation
    out.violation = violation_in_row(part.view(), source, r, least, stream);
    return out;
  }
  out.marks.resize(n);
  TROPIC_CUDA_CHECK(
      cudaMemcpyAsync(out.marks.data(), marks.data(), n, cudaMemcpyDeviceToHost, stream));
  stream.synchronize();
  return out;
}

template <class W>
certificate_part certify_part_on_host(const device_matrix<W>& part, vertex source,
                                      const result<W>& r, row_range rows) {
  TROPIC_CUDA_CHECK(cudaStreamSynchronize(part.stream()));
  // The part as a CSR of n rows, those outside its range empty; its rows are weight-sorted,
  // which the certificate does not mind (a row's violation is reported by column).
  const csr<W> g = download_csr(part);
  return certify_rows(g, source, r, rows);
}

}  // namespace detail

template <class W>
std::string certify(const distributed_matrix<W>& a, vertex source, const result<W>& r) {
  const detail::current_device_guard keep_device;
  std::vector<std::optional<certificate_part>> parts(a.parts());
  detail::rank_group group(a.parts());
  detail::run_ranks(a.parts(), group, [&](std::size_t p) {
    TROPIC_CUDA_CHECK(cudaSetDevice(a.devices()[p]));
    parts[p] = detail::certify_part_on_device(a.part(p), source, r, a.ranges()[p]);
  });
  // A part whose device has no room for r is checked on the host, one such part at a time.
  std::vector<certificate_part> checked;
  for (std::size_t p = 0; p < a.parts(); ++p) {
    if (!parts[p]) {
      TROPIC_CUDA_CHECK(cudaSetDevice(a.devices()[p]));
      parts[p] = detail::certify_part_on_host(a.part(p), source, r, a.ranges()[p]);
    }
    checked.push_back(std::move(*parts[p]));
  }
  return certify_combine(source, r, checked);
}

template <class W>
std::string certify_on_host(const distributed_matrix<W>& a, vertex source, const result<W>& r) {
  const detail::current_device_guard keep_device;
  std::vector<certificate_part> checked;
  for (std::size_t p = 0; p < a.parts(); ++p) {
    TROPIC_CUDA_CHECK(cudaSetDevice(a.devices()[p]));
    checked.push_back(detail::certify_part_on_host(a.part(p), source, r, a.ranges()[p]));
  }
  return certify_combine(source, r, checked);
}

#define TROPIC_INSTANTIATE(W)                                                                \
  template std::optional<certificate_part> detail::certify_part_on_device<W>(                \
      const device_matrix<W>&, vertex, const result<W>&, row_range);                         \
  template certificate_part detail::certify_part_on_host<W>(const device_matrix<W>&, vertex, \
                                                            const result<W>&, row_range);    \
  template std::string certify<W>(const distributed_matrix<W>&, vertex, const result<W>&);   \
  template std::string certify_on_host<W>(const distributed_matrix<W>&, vertex, const result<W>&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic
