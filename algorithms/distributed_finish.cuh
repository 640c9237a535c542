// The result pass of the several-GPU delta-stepping (delta_stepping_distributed.cu), after each
// rank's bucket loop (distributed_rank_solver.cuh): distances to every rank, the tight-arc pass
// for overflow and parents over each part, the download on rank 0.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "distributed_rank_solver.cuh"

namespace tropic::detail {

// After rank r's solve, whose statistics are st: every rank gets every part's distances; the
// arc pass (overflow, parents) runs on each part's arcs and its answers meet by a min; rank 0
// downloads and returns the result (the other ranks an empty one).
template <class W>
result<W> finish(rank_solver<W>& r, statistics& st) {
  std::vector<std::size_t> first(r.parts), size(r.parts);
  for (std::size_t q = 0; q < r.parts; ++q) {
    first[q] = r.matrix.ranges()[q].begin;
    size[q] = r.matrix.ranges()[q].size();
  }
  // Every buffer is allocated before the first NCCL call: no allocation waits behind one.
  const bool parents = r.opts.parents;
  const bool adopts = parents && needs_adoption<W>(r.matrix.stats());
  device_buffer<unsigned long long> parent(parents ? r.n : 0, r.stream);
  device_buffer<unsigned long long> overflow(1, r.stream);
  device_buffer<unsigned long long> settled(adopts ? r.n : 0, r.stream), adopted(1, r.stream);
  pinned_buffer<unsigned long long> count(1), overflow_host(1);
  r.matrix.comms().broadcast_blocks(r.me, {{r.t.data(), sizeof(W)}}, first, size, r.stream);
  TROPIC_CUDA_CHECK(cudaMemsetAsync(overflow.data(), 0xff, sizeof(unsigned long long),
                                    r.stream));
  if (parents)
    TROPIC_CUDA_CHECK(cudaMemsetAsync(parent.data(), 0xff, r.n * sizeof(unsigned long long),
                                      r.stream));
  tight_arc_pass(r.A.view(), r.t.data(), r.source, parents, true, parent.data(), overflow.data(),
                 r.stream);
  if (parents) r.matrix.comms().all_reduce_min(r.me, parent.data(), r.n, r.stream);
  if (adopts) {
    for (;;) {
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(settled.data(), parent.data(),
                                        r.n * sizeof(unsigned long long),
                                        cudaMemcpyDeviceToDevice, r.stream));
      adoption_round(r.A.view(), r.t.data(), r.source, false, settled.data(), parent.data(),
                     adopted.data(), r.stream);
      r.matrix.comms().all_reduce_min(r.me, parent.data(), r.n, r.stream);
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(count.data(), adopted.data(), sizeof(unsigned long long),
                                        cudaMemcpyDeviceToHost, r.stream));
      r.wait();
      std::uint64_t total = 0;
      for (std::uint64_t c : r.meet(std::uint64_t(count.data()[0]))) total += c;
      if (total == 0) break;
    }
  }
  TROPIC_CUDA_CHECK(cudaMemcpyAsync(overflow_host.data(), overflow.data(),
                                    sizeof(unsigned long long), cudaMemcpyDeviceToHost, r.stream));
  r.wait();
  const unsigned long long overflow_vertex = overflow_host.data()[0];
  unsigned long long first_overflow = ~0ull;
  for (unsigned long long v : r.meet(overflow_vertex))
    first_overflow = std::min(first_overflow, v);
  // Statistics: counts add over the ranks; the time is the slowest rank's.
  struct tally { std::uint64_t vertices, arcs, sent; double ms; };
  const auto all =
      r.meet(tally{st.vertices_relaxed, st.arcs_relaxed, r.exchanged, st.milliseconds});
  result<W> out;
  if (r.me != 0) return out;
  st.vertices_relaxed = st.arcs_relaxed = 0;
  for (const tally& x : all) {
    st.vertices_relaxed += x.vertices;
    st.arcs_relaxed += x.arcs;
    st.milliseconds = std::max(st.milliseconds, x.ms);
  }
  out.stats = st;
  finish_download(r.n, r.t.data(), parents ? parent.data() : nullptr, first_overflow, r.opts, out,
                  r.stream);
  return out;
}

}  // namespace tropic::detail
