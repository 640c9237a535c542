// Device-driven loops: operators whose loop control stays on the GPU, so a step costs a grid
// barrier (~1 µs on the H100) instead of a host round trip (a pinned counter read, ~18 µs, plus
// the launches) or a CUDA graph's nodes (bench/results/h100-run10/sweeps/anatomy-*).
//
// Inside such a loop the host never learns how long a frontier is, so the operators there take
// `device_worklist`s (an index list whose length lives on the device) and device-resident
// ranges. The worklists follow one convention that makes loops composable: an operator that
// reads a worklist drains it (its length is zero afterwards), an operator that writes one
// appends to it. Persistent kernels call the grid-wide device forms of these operators
// (semiring/grid.cuh) between grid barriers: delta-stepping's bucket loop runs as one such kernel
// on graphs of small frontiers and long paths (algorithms/delta_stepping_device.cu).
#pragma once

#include <cstdint>

#include "tropic/operators.hpp"

namespace tropic {

// An index list with its length on the device; empty when made. Capacity n: a worklist filled by
// the operators below never repeats an index within one call.
class device_worklist {
 public:
  device_worklist(vertex capacity, cudaStream_t stream);
  vertex* indices() noexcept { return indices_.data(); }
  const vertex* indices() const noexcept { return indices_.data(); }
  unsigned long long* count() noexcept { return count_.data(); }
  const unsigned long long* count() const noexcept { return count_.data(); }
  vertex capacity() const noexcept { return static_cast<vertex>(indices_.size()); }

 private:
  device_buffer<vertex> indices_;
  device_buffer<unsigned long long> count_;
};

// The closure of a push step inside a range: repeat { w = min(w, (w .* in)' min.+ A); in = the
// indices whose w decreased into *range } until `in` is empty -- delta-stepping's light phase of
// one bucket, "while B is not empty" (Meyer & Sanders, section 2), as one operator. One
// persistent kernel runs every step, its blocks kept in step by a grid barrier: a step costs the
// barrier, not a kernel launch and a host round trip. Each index whose w decreased into the range
// is pushed once more, with its final value, before the closure ends. Drains `in`; `spare`, an
// empty worklist of the same capacity, holds every other step's frontier and ends empty.
//
// Inside a step, each block pushes the rows it improved itself, for up to limits.local_rounds
// rounds of a shared-memory queue of limits.queue_items entries, before the grid barrier: a row
// then costs its own loads, not a barrier and a global frontier. Zero rounds is the
// level-synchronous closure, one frontier per grid barrier. A row of the global frontier longer
// than the block (a hub) is pushed by the whole block, not by its group.
struct closure_limits {
  unsigned local_rounds = tuning::closure_local_rounds;  // any; ~0u: until the queue runs dry
  unsigned queue_items = tuning::closure_queue_items;    // 1 .. tuning::closure_queue_items
  // Local rounds only after a global frontier of at most this many rows (per_device:
  // tuning::closure_local_frontier_per_sm per SM): a wider one has the parallelism already, and
  // rounds after it push rows before their values settle (uniform-4M without the limit: 4.0 rows
  // per vertex instead of 2.3; bench/results/h100-run6/results.csv, run5's).
  static constexpr std::size_t per_device = ~std::size_t(0);
  std::size_t local_frontier = per_device;
  unsigned group_lanes = 0;  // lanes per row: 1, 2, 4, 8, 32, or 0: from the mean row length
  unsigned blocks = 0;  // 0: tuning::device_loop_blocks_per_sm per SM; capped at the resident
  // Ask L2 for a queued row's arcs when it is queued, so that the next round's loads wait on L2,
  // not device memory: grid-4M 2-4% faster, roads and meshes within noise;
  // bench/results/h100-run10/sweeps/anatomy-2-bucket-kernel.txt.
  bool prefetch_queued_rows = true;
};

template <class S, class W = typename S::value_type>
void vxm_closure(dense_vector<W>& w, S semiring, device_worklist& in, const matrix_operand<W>& a,
                 gpu_context& ctx, device_worklist& spare, const value_range<W>* range,
                 closure_limits limits = {});

}  // namespace tropic
