// distributed_matrix (tropic/distributed.hpp): the parts of a 1D row partition, each uploaded to
// its own GPU by a host thread of its own, and the NCCL communicators the solve exchanges over.
#include <algorithm>
#include <limits>
#include <string>

#include "distributed_nccl.hpp"
#include "distributed_ranks.hpp"
#include "tropic/distributed.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/generate_device.hpp"

namespace tropic {

bool multi_gpu_available() noexcept {
#if defined(TROPIC_HAVE_NCCL)
  return true;
#else
  return false;
#endif
}

namespace {

void check_devices(const std::vector<int>& devices) {
  if (devices.empty())
    throw error(error_code::invalid_value, "a distributed matrix needs at least one device");
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  std::vector<int> seen;
  for (int d : devices) {
    if (d < 0 || d >= count)
      throw error(error_code::invalid_value,
                  "device " + std::to_string(d) + " does not exist: this machine has " +
                      std::to_string(count) + " CUDA device" + (count == 1 ? "" : "s"));
    if (std::find(seen.begin(), seen.end(), d) != seen.end())
      throw error(error_code::invalid_value,
                  "device " + std::to_string(d) + " is listed twice: each part needs a GPU of "
                  "its own (NCCL runs one rank per device)");
    seen.push_back(d);
  }
  if (devices.size() > 1 && !multi_gpu_available())
    throw error(error_code::not_implemented,
                "this build of tropic has no NCCL: it solves on one GPU only (rebuild with NCCL "
                "installed to use several)");
}

// The n + 1 row offsets of the whole matrix for a part holding rows [r.begin, r.end) whose own
// offsets (r.size() + 1, from 0) are `local`: rows before the part start at 0, rows after it at
// its arc count.
std::vector<arc_index> whole_offsets(vertex n, row_range r, const arc_index* local) {
  std::vector<arc_index> offsets(std::size_t(n) + 1, 0);
  const arc_index arcs = local[r.size()];
  for (vertex u = r.begin; u < r.end; ++u) offsets[u + 1] = local[u - r.begin + 1];
  std::fill(offsets.begin() + r.end + 1, offsets.end(), arcs);
  return offsets;
}

template <class W>
graph_stats combine_stats(vertex n, const std::vector<graph_stats>& parts) {
  graph_stats s;
  s.n = n;
  double weight_sum = 0;
  std::uint64_t isolated = 0;
  bool any_arc = false;
  for (const graph_stats& p : parts) {
    s.arcs += p.arcs;
    isolated += p.isolated;
    s.max_degree = std::max(s.max_degree, p.max_degree);
    s.has_negative_weight = s.has_negative_weight || p.has_negative_weight;
    if (p.arcs == 0) continue;
    s.min_weight = any_arc ? std::min(s.min_weight, p.min_weight) : p.min_weight;
    s.max_weight = any_arc ? std::max(s.max_weight, p.max_weight) : p.max_weight;
    weight_sum += p.avg_weight * double(p.arcs);
    any_arc = true;
  }
  // Each part counts the n - |range| rows it does not hold as rows without arcs.
  s.isolated = vertex(isolated - std::uint64_t(parts.size() - 1) * n);
  s.avg_weight = s.arcs ? weight_sum / double(s.arcs) : 0;
  s.avg_degree = n ? double(s.arcs) / n : 0;
  return s;
}

}  // namespace

template <class W>
void distributed_matrix<W>::build(const std::function<void(std::size_t)>& upload_part) {
  parts_.resize(devices_.size());
  const detail::current_device_guard keep_device;  // part 0 is built on the caller's thread
  detail::rank_group group(devices_.size());
  detail::run_ranks(devices_.size(), group, [&](std::size_t p) {
    TROPIC_CUDA_CHECK(cudaSetDevice(devices_[p]));
    try {
      upload_part(p);
    } catch (const error& e) {
      throw error(e.code(), "part " + std::to_string(p) + " of " + std::to_string(devices_.size()) +
                                " (rows [" + std::to_string(ranges_[p].begin) + ", " +
                                std::to_string(ranges_[p].end) + "), device " +
                                std::to_string(devices_[p]) + "): " + e.what());
    }
    TROPIC_CUDA_CHECK(cudaDeviceSynchronize());
  });
  std::vector<graph_stats> stats;
  for (const auto& part : parts_) stats.push_back(part->stats());
  stats_ = combine_stats<W>(stats_.n, stats);
  comms_ = std::make_unique<detail::nccl_communicators>(devices_);
}

template <class W>
distributed_matrix<W>::distributed_matrix(const csr<W>& g, const std::vector<int>& devices)
    : distributed_matrix(host_view(g), devices) {}

template <class W>
distributed_matrix<W>::distributed_matrix(const csr_host_view<W>& g,
                                          const std::vector<int>& devices)
    : devices_(devices) {
  check_devices(devices_);
  stats_.n = g.n;
  ranges_ = partition_rows(g.row_offsets, g.n, devices_.size());
  const bool symmetric = compute_stats(g).symmetric;
  build([&](std::size_t p) {
    const row_range r = ranges_[p];
    std::vector<arc_index> local(g.row_offsets + r.begin, g.row_offsets + r.end + 1);
    const arc_index first = local.front();
    for (arc_index& o : local) o -= first;
    const std::vector<arc_index> offsets = whole_offsets(g.n, r, local.data());
    const csr_host_view<W> view{g.n, offsets.data(), g.columns + first, g.weights + first};
    parts_[p] = std::make_unique<device_matrix<W>>(view, upload_options{transpose_policy::none});
  });
  stats_.symmetric = symmetric;
}

template <class W>
distributed_matrix<W>::distributed_matrix(vertex n, const std::vector<int>& devices,
                                          const block_source& block, bool symmetric)
    : devices_(devices) {
  check_devices(devices_);
  stats_.n = n;
  ranges_ = partition_vertices(n, devices_.size());
  build([&](std::size_t p) {
    const row_range r = ranges_[p];
    csr_rows<W> rows = block(r);
    if (rows.n != n || rows.rows.begin != r.begin || rows.rows.end != r.end ||
        rows.row_offsets.size() != std::size_t(r.size()) + 1)
      throw error(error_code::invalid_value,
                  "part " + std::to_string(p) + "'s block does not hold rows [" +
                      std::to_string(r.begin) + ", " + std::to_string(r.end) + ") of a " +
                      std::to_string(n) + "-vertex graph");
    const std::vector<arc_index> offsets = whole_offsets(n, r, rows.row_offsets.data());
    const csr_host_view<W> view{n, offsets.data(), rows.columns.data(), rows.weights.data()};
    parts_[p] = std::make_unique<device_matrix<W>>(view, upload_options{transpose_policy::none});
  });
  stats_.symmetric = symmetric;
}

template <class W>
distributed_matrix<W>::distributed_matrix(const std::string& spec, std::uint64_t seed,
                                          const std::vector<int>& devices)
    : devices_(devices) {
  check_devices(devices_);
  stats_.n = graph_spec_vertices(spec);
  ranges_ = partition_vertices(stats_.n, devices_.size());
  // One part is the whole graph, its own transpose; a part of several holds some rows only.
  const bool whole = devices_.size() == 1;
  build([&](std::size_t p) {
    parts_[p] = std::make_unique<device_matrix<W>>(
        generate_on_device<W>(spec, seed, ranges_[p], whole));
  });
  stats_.symmetric = true;  // kron and grid: both directions of each edge, one weight
}

template <class W>
distributed_matrix<W>::~distributed_matrix() {
  const detail::current_device_guard keep_device;
  comms_.reset();
  for (std::size_t p = 0; p < parts_.size(); ++p) {
    if (cudaSetDevice(devices_[p]) != cudaSuccess) continue;
    parts_[p].reset();  // its buffers are freed on the device they live on
  }
}

template <class W>
std::vector<std::size_t> distributed_matrix<W>::device_bytes() const {
  std::vector<std::size_t> bytes;
  for (const auto& part : parts_) bytes.push_back(part->device_bytes());
  return bytes;
}

#define TROPIC_INSTANTIATE(W) template class distributed_matrix<W>;
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic
