// Several GPUs of one host (issue 38): A split by rows over P devices, delta-stepping's buckets
// run on every device at once, the improved distances exchanged through NCCL.
//
// Layout (CombBLAS's 1D row partition): device p holds the rows of its vertex range, every
// column, as a tropic device_matrix of all n rows whose rows outside the range are empty, so the
// min-plus operators run on it unchanged. Each device also holds a dense distance vector of all
// n vertices: exact for its own vertices, for the others the least value it has sent their owner.
// needs a CUDA build (GPU builds only; a plain C++ header).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tropic/device_matrix.hpp"
#include "tropic/partition.hpp"
#include "tropic/sssp.hpp"

namespace tropic {

namespace detail {
class nccl_communicators;  // algorithms/distributed_nccl.hpp: NCCL's, one per part
}  // namespace detail

// Whether this build can run on several GPUs (it was built with NCCL).
bool multi_gpu_available() noexcept;

template <class W>
class distributed_matrix {
 public:
  // g split by partition_rows over `devices` (distinct CUDA ordinals), each part uploaded to its
  // device by a host thread of its own; g's arrays are read during the call only. One device is
  // allowed (no NCCL needed). Throws invalid_value for an empty or repeated device list or an
  // ordinal that does not exist, out_of_memory naming the part and the bytes when a part does not
  // fit its device, and not_implemented when several devices are asked of a build without NCCL.
  distributed_matrix(const csr<W>& g, const std::vector<int>& devices);
  // The same from arrays someone else owns (Python's numpy CSR), laid out as csr<W>'s.
  distributed_matrix(const csr_host_view<W>& g, const std::vector<int>& devices);
  // A graph of n vertices that never passes through one host array: part p's rows are
  // `block(range)` for range = partition_vertices(n, P)[p] (generate_rows, read_graph_rows),
  // built by part p's host thread and freed once on its device. `symmetric`: the caller knows
  // the blocks form a symmetric matrix (generate_rows of kron and grid specs), which lets the
  // solve pull; a wrong `true` gives wrong distances, so pass it only when it holds by
  // construction.
  using block_source = std::function<csr_rows<W>(row_range)>;
  distributed_matrix(vertex n, const std::vector<int>& devices, const block_source& block,
                     bool symmetric = false);
  // The graph generate<W>(spec, seed) describes (kron or grid), each part generated on its own
  // device (generate_on_device, tropic/generate_device.hpp): the graph is never on the host.
  // Parts as the block constructor's (partition_vertices); symmetric.
  distributed_matrix(const std::string& spec, std::uint64_t seed, const std::vector<int>& devices);
  ~distributed_matrix();
  distributed_matrix(const distributed_matrix&) = delete;
  distributed_matrix& operator=(const distributed_matrix&) = delete;

  vertex rows() const noexcept { return stats_.n; }
  arc_index arcs() const noexcept { return stats_.arcs; }
  // The whole graph's statistics, combined from the parts (probe_levels unknown: 0; symmetric
  // as computed from the host CSR or promised by the block constructor's caller).
  const graph_stats& stats() const noexcept { return stats_; }
  std::size_t parts() const noexcept { return ranges_.size(); }
  const std::vector<row_range>& ranges() const noexcept { return ranges_; }
  const std::vector<int>& devices() const noexcept { return devices_; }
  // Part p: its rows of A (all n rows, those outside ranges()[p] empty), on devices()[p].
  const device_matrix<W>& part(std::size_t p) const { return *parts_[p]; }
  // Device bytes each part holds.
  std::vector<std::size_t> device_bytes() const;

  detail::nccl_communicators& comms() const { return *comms_; }

 private:
  void build(const std::function<void(std::size_t)>& upload_part);
  std::vector<int> devices_;
  std::vector<row_range> ranges_;
  std::vector<std::unique_ptr<device_matrix<W>>> parts_;
  graph_stats stats_;
  std::unique_ptr<detail::nccl_communicators> comms_;
};

// Delta-stepping over the parts (algorithms/delta_stepping_distributed.cu): the same distances as
// sssp(g, source, {delta_stepping}) on one GPU, and with opts.parents the same parents (the least
// u of a tight rising arc; with zero weights or floats some tied vertex may take another valid
// parent). opts.algorithm must be automatic or delta_stepping, weights non-negative; opts.delta,
// cutoff and parents hold as for one GPU; opts.loop picks steps or closure rounds (loop_control);
// opts.device and opts.devices are ignored (the matrix's devices run). stats.milliseconds: the
// solve on every device, from the first launch to the last device's end;
// stats.device_loop_buckets: the buckets whose light loop ran as closure rounds. Solves on one
// matrix from several threads run one after another; the calling thread's current device is as
// it was.
template <class W>
result<W> sssp(const distributed_matrix<W>& a, vertex source, const options& opts = {});

// Where one distributed solve's time went, seen from rank 0's host thread (the first device's):
// what limits the scaling (tropic_bench_multi_gpu --profile). Its wall time by phase, each
// ending in a wait for the device, so host time is device time too: relaxing (the direction
// rule, a pull's frontier gather, the push or pull), exchanging a push's improved distances with
// their owners, selecting buckets; the rest is between them. Across the phases: the time blocked
// in the solver's own waits on rank 0's stream (the operators wait inside the relax phase on
// their own), at the ranks' host meetings (waiting for the slowest rank; the last one ends the
// solve), and the time of rank 0's NCCL transfers on its stream (events around them: the bytes
// moving and any wait for a peer inside NCCL).
struct distributed_profile {
  double solve_ms = 0, relax_ms = 0, exchange_ms = 0, select_ms = 0;
  double wait_ms = 0, meet_ms = 0, nccl_ms = 0;
  std::uint64_t waits = 0, meetings = 0, transfers = 0;
  std::uint64_t steps = 0;     // relaxation steps (light and heavy; a closure round is one)
  std::uint64_t pulls = 0;     // of them, pulls of a gathered frontier
  std::uint64_t gathered = 0;  // frontier entries rank 0 received from its peers for the pulls
  // Every relaxation step as each rank saw it: whether it pulled, whether it was a heavy step,
  // its frontier over every rank, and per rank: the host time of its relax phase (which ends in
  // that rank's own wait), of it a pull's gather of the frontier (device time), the entries its
  // relax improved; then the host time of the exchange that routed them (0 when nothing was
  // routed: a pull, or one part) and, on the device, its route kernel, NCCL transfers and
  // apply kernels. Uneven times say the parts' work is uneven; even times that do not shrink
  // with the parts say per-part costs do not scale. A closure round (graphs of short rows) is
  // logged as a light push whose improved count is 0 (its kernel does not count them) and whose
  // exchange time includes the wait for its closure.
  struct step {
    bool pull = false, heavy = false;
    std::uint64_t frontier = 0;
    std::vector<double> relax_ms, gather_ms;
    std::vector<std::uint64_t> improved;
    std::vector<double> exchange_ms, route_ms, send_ms, apply_ms;
  };
  std::vector<step> step_log;
};
// sssp(a, source, opts) filling *profile (when not null) as it goes.
template <class W>
result<W> sssp(const distributed_matrix<W>& a, vertex source, const options& opts,
               distributed_profile* profile);

// Many sources over the parts, solved one after another as sssp(a, source) above: rows as
// sssp(device_matrix, sources) returns them. sssp_into writes them into the caller's memory
// (distances[i * n + v], parents likewise with options.parents; every entry written) and returns
// the statistics summed over the sources, milliseconds the whole call's wall time.
template <class W>
multi_result<W> sssp(const distributed_matrix<W>& a, const std::vector<vertex>& sources,
                     const options& opts = {});
template <class W>
statistics sssp_into(const distributed_matrix<W>& a, const std::vector<vertex>& sources,
                     const options& opts, W* distances, std::int64_t* parents = nullptr);

// certify(g, source, r) (tropic/sssp.hpp) over the matrix's parts: "" when r is proven exact,
// else the first violation, the same text as certify over the whole graph. Each part's rows are
// checked on their own GPU (certify_rows' checks, against r's distances and parents uploaded
// there), then combined on the host (certify_combine); a part whose device lacks the room for
// them (n distances, n parents, n bytes) is checked on the host as certify_on_host does. The
// calling thread's current device is as it was.
template <class W>
std::string certify(const distributed_matrix<W>& a, vertex source, const result<W>& r);

// The same certificate with each part's rows brought to the host in turn and checked there by
// all cores (certify_rows): host memory holds one part at a time besides r. The reference for
// certify above, and slow for large parts (the arcs cross PCIe).
template <class W>
std::string certify_on_host(const distributed_matrix<W>& a, vertex source, const result<W>& r);

}  // namespace tropic
