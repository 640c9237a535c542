// Device-driven loops: operator calls captured once into a CUDA graph whose loops the GPU runs
// itself (conditional WHILE nodes, CUDA 12.4+), so a step costs a graph node (~1-2 µs on the
// H100) instead of a host round trip (a pinned counter read: ~18 µs plus the launches).
//
// Inside such a loop the host never learns how long a frontier is, so the operators there take
// `device_worklist`s (an index list whose length lives on the device) and device-resident
// scalars and ranges. The worklists follow one convention that makes loops composable: an
// operator that reads a worklist drains it (its length is zero afterwards), an operator that
// writes one appends to it. Everything a captured operator touches is allocated before capture
// (conditional bodies may hold kernels, memsets and copies only).
//
// Delta-stepping uses this form for graphs of small frontiers and long paths (roads, grids),
// where host round trips, not arcs, set the time (issue #4; bench/RESULTS.md).
#pragma once

#include <cstdint>
#include <vector>

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

// The condition of a device-driven WHILE loop (a CUDA graph conditional handle).
struct loop_condition {
  cudaGraphConditionalHandle handle{};
};

// A CUDA graph built by stream capture of operator calls on ctx's stream, then run by launch().
// while_loop() may nest. Captured operators must not allocate: reserve ctx.temp() first.
class device_graph {
 public:
  explicit device_graph(gpu_context& ctx);
  ~device_graph();
  device_graph(const device_graph&) = delete;
  device_graph& operator=(const device_graph&) = delete;

  // A condition for a loop added next to the graph now being captured; `initial` is its value
  // when the graph is launched (a kernel before the loop may set it instead).
  loop_condition condition(unsigned initial = 0);

  // while (condition) body(); -- body() issues operator calls, one of which sets the condition.
  template <class Body>
  void while_loop(loop_condition c, Body&& body) {
    begin_loop(c);
    body();
    end_loop();
  }

  // Instantiates the graph (once) and runs it on the context's stream.
  void launch();

 private:
  void begin_loop(loop_condition c);
  void end_loop();

  gpu_context& ctx_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  // Per open loop: the graph to resume capturing after the body, and the loop's node there.
  struct open_loop {
    cudaGraph_t outer;
    cudaGraphNode_t node;
  };
  std::vector<open_loop> open_;
  bool capturing_ = false;
};

// out = { i : range->lo <= in[i] < range->hi } with the range read on the device; `out` must be
// empty (drained). The bucket B = {v : iΔ <= t[v] < (i+1)Δ} of a device-driven delta-stepping.
template <class W>
void select(device_worklist& out, const dense_vector<W>& in, const value_range<W>* range,
            gpu_context& ctx);

// w = min(w, (w .* in)' min.+ A), drains `in`. Like vxm over the sparse vector w .* in, with the
// entries' values read from w as the kernel goes (a value read late is smaller, never wrong:
// min-plus relaxation is monotone). Push over A's rows, a thread group per frontier row, on a
// grid sized for the device, not the frontier. `improved` receives, once each, the indices whose
// w decreased into *improved_range.
template <class S, class W = typename S::value_type>
void vxm(dense_vector<W>& w, S semiring, device_worklist& in, const matrix_operand<W>& a,
         gpu_context& ctx, device_worklist& improved, const value_range<W>* improved_range);

// The closure of that step inside a range: repeat { w = min(w, (w .* in)' min.+ A); in = the
// indices whose w decreased into *range } until `in` is empty -- delta-stepping's light phase of
// one bucket, "while B is not empty" (Meyer & Sanders, section 2), as one operator. One
// persistent kernel runs every step, its blocks kept in step by a grid barrier: a step then costs
// the barrier (~1 µs) instead of a graph node and a kernel launch (the ~8 µs per light step that
// set grids' and roads' times, bench/RESULTS.md). Each index whose w decreased into the range is
// pushed once more, with its final value, before the closure ends. Drains `in`; `spare`, an
// empty worklist of the same capacity, holds every other step's frontier and ends empty.
//
// Inside a step, each block pushes the rows it improved itself, for up to limits.local_rounds
// rounds of a shared-memory queue of limits.queue_items entries, before the grid barrier (see
// closure_limits): a row then costs its own loads, not a barrier and a global frontier. Zero
// rounds is the level-synchronous closure, one frontier per grid barrier. A row of the global
// frontier longer than the block (a hub) is pushed by the whole block, not by its group.
struct closure_limits {
  unsigned local_rounds = tuning::closure_local_rounds;  // any; ~0u: until the queue runs dry
  unsigned queue_items = tuning::closure_queue_items;    // 1 .. tuning::closure_queue_items
  // Local rounds only after a global frontier of at most this many rows: a wider one has the
  // parallelism already, and rounds after it push rows before their values settle (bench run
  // 6, without this limit: uniform-4M pushed 4.0 rows per vertex instead of 2.3).
  std::size_t local_frontier = tuning::closure_local_frontier;
  unsigned group_lanes = 0;  // lanes per row: 1, 2, 4, 8, 32, or 0: from the mean row length
  unsigned blocks = 0;       // 0: tuning::device_loop_blocks; capped at the resident blocks
};

template <class S, class W = typename S::value_type>
void vxm_closure(dense_vector<W>& w, S semiring, device_worklist& in, const matrix_operand<W>& a,
                 gpu_context& ctx, device_worklist& spare, const value_range<W>* range,
                 closure_limits limits = {});

// *out = min{ in[i] : in[i] >= *above } (infinity<W>() if none): the next non-empty bucket.
template <class W>
void reduce_min(W* out, const dense_vector<W>& in, const W* above, gpu_context& ctx);

// Bytes of ctx.temp() the device-driven select and reduce_min need for n entries (reserve them
// before capture).
template <class W>
std::size_t device_loop_temp_bytes(vertex n);

}  // namespace tropic
