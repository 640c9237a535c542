// One rank of the several-GPU delta-stepping (delta_stepping_distributed.cu, whose opening
// comment describes the protocol): its part, vectors and exchange buffers; a step, a pull, a
// closure round and the exchange after them; the bucket loop (solve). distributed_finish.cuh
// makes the result; delta_stepping_distributed.cu checks the arguments, picks Δ and runs a
// rank_solver on each device's host thread.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <thread>

#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "bucket_bounds.cuh"
#include "distributed_kernels.cuh"
#include "distributed_nccl.hpp"
#include "distributed_profile.cuh"
#include "distributed_ranks.hpp"
#include "policy.hpp"
#include "tropic/detail/backends.hpp"
#include "tropic/detail/cutoff.hpp"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_loop.hpp"
#include "tropic/distributed.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"
#include "tropic/tuning.hpp"

namespace tropic::detail {


using namespace distributed;

// The state of one rank: its part, its vectors, its exchange buffers.
template <class W>
struct rank_solver {
  const distributed_matrix<W>& matrix;
  std::size_t me;
  rank_group& group;
  const options& opts;
  bucket_bounds<W> buckets;  // widened once at most (solve)
  vertex source;

  const device_matrix<W>& A = matrix.part(me);
  const vertex n = A.rows();
  const std::size_t parts = matrix.parts();
  const row_range own = matrix.ranges()[me];
  part_bounds bounds{};
  cuda_stream stream;
  gpu_context ctx{stream};
  dense_vector<W> t{n, stream};
  sparse_vector<W> B{n, stream}, tB{n, stream}, I{n, stream};
  // send block of part q at its first vertex; receive block of peer q at q * |own|
  device_buffer<vertex> send_ids{n, stream};
  device_buffer<W> send_values{n, stream};
  device_buffer<vertex> recv_ids{std::size_t(own.size()) * parts, stream};
  device_buffer<W> recv_values{std::size_t(own.size()) * parts, stream};
  device_buffer<std::uint32_t> stamps{std::max<std::size_t>(own.size(), 1), stream};
  device_buffer<unsigned long long> counters{parts + 1, stream};  // sends, then `next`
  device_buffer<W> least{1, stream};
  // Pulls (symmetric A only: row v's arcs are v's in-arcs): every rank's frontier, gathered in
  // rank order.
  const bool may_pull = matrix.stats().symmetric;
  sparse_vector<W> gathered{may_pull ? n : 0, stream};
  // Host copies in pinned memory: a copy to pageable memory would block this thread inside the
  // CUDA call behind an NCCL kernel, where a peer's failure could never reach it (wait()).
  pinned_buffer<unsigned long long> counters_host{parts + 1};
  pinned_buffer<W> least_host{1};
  std::uint32_t now = 0;
  std::uint64_t exchanged = 0;  // entries sent to peers (statistics)
  // Closure rounds (graphs of short rows and thin borders, policy::distributed; decided in
  // solve): this rank's ghosts and the least value sent to each one's owner, the closure's
  // worklists (`in` also takes the vertices a round's exchange improved) and its bucket on the
  // device.
  bool closure_rounds = false;
  bool may_hand_over = false;  // steps now, rounds once they are small (choose_rounds, solve)
  device_buffer<vertex> ghosts;
  dense_vector<W> ghost_sent;
  std::optional<device_worklist> in, spare;
  std::size_t received_into_in = 0;  // entries the last round's exchange applied into `in`
  device_buffer<value_range<W>> bucket_on_device{1, stream};
  pinned_buffer<unsigned long long> frontier_host{1};  // pinned, as counters_host
  pinned_buffer<value_range<W>> bucket_host{1};
  // Rank 0's account of the solve loop when one is asked for (distributed_profile), and every
  // rank's record of its steps then.
  profile_account account;
  std::vector<step_sample>* log = nullptr;
  event_span gathering;  // a pull's gather, when steps are logged
  event_span routing, sending, applying;  // an exchange's three parts, likewise

  rank_solver(const distributed_matrix<W>& m, std::size_t rank, rank_group& g, const options& o,
              const bucket_bounds<W>& b, vertex s)
      : matrix(m), me(rank), group(g), opts(o), buckets(b), source(s) {
    for (std::size_t p = 0; p < parts; ++p) bounds.begin[p] = matrix.ranges()[p].begin;
    bounds.begin[parts] = n;
    bounds.parts = unsigned(parts);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(stamps.data(), 0, stamps.size() * sizeof(std::uint32_t),
                                      stream));
  }

  // Waits for this rank's stream without blocking on a peer that failed: a stream stuck in an
  // NCCL call whose peer is gone is released by aborting this rank's communicator (run_ranks'
  // on_failure), after which the wait ends.
  void wait() {
    account.wait([&] { drain(); });
  }
  void drain() {
    for (;;) {
      const cudaError_t status = cudaStreamQuery(stream);
      if (status == cudaSuccess) return;
      if (status != cudaErrorNotReady) TROPIC_CUDA_CHECK(status);
      if (group.failed()) throw rank_failed{};
      std::this_thread::yield();
    }
  }

  // group.all_gather, the ranks' host meeting; an NCCL exchange on this rank's stream.
  template <class T>
  std::vector<T> meet(const T& value) {
    return account.meet(group, me, value);
  }
  template <class F>
  void transfer(F&& nccl) {
    account.transfer(stream, nccl);
  }

  // The counters of the last kernels, to the host (after wait()).
  void read_counters() {
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(counters_host.data(), counters.data(),
                                      (parts + 1) * sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost, stream));
    wait();
    ++ctx.round_trips;
  }

  // B = { v owned : t[v] in range }, with values; returns the least owned t[v] in least_range.
  W select(sparse_vector<W>& out, value_range<W> range, value_range<W> least_range) {
    const auto clock = account.phase(&distributed_profile::select_ms);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, (parts + 1) * sizeof(unsigned long long),
                                      stream));
    const W none = infinity<W>();
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(least.data(), &none, sizeof(W), cudaMemcpyHostToDevice,
                                      stream));
    select_owned<<<blocks_for(own.size()), block_threads, 0, stream>>>(
        t.data(), own.begin, own.end, range, out.indices(), out.values(),
        counters.data() + parts, least_range, least.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(least_host.data(), least.data(), sizeof(W),
                                      cudaMemcpyDeviceToHost, stream));
    read_counters();
    out.set_nvals(counters_host.data()[parts]);
    return least_host.data()[0];
  }

  // After a push on several parts that listed its improved entries in I: route, exchange, apply.
  // B becomes this rank's vertices improved inside `bucket`; returns the size of B over every
  // rank. After a closure round (`ghosts_fell`) the ghosts whose value fell are routed and the
  // vertices they improve go into the closure's worklist `in` on the device, for the next round:
  // the host never learns their number, so the round needs one counter read and one meeting, and
  // returns the entries sent over every rank (none sent: the bucket's light loop is done).
  std::uint64_t exchange(value_range<W> bucket, bool ghosts_fell = false) {
    const auto clock = account.phase(&distributed_profile::exchange_ms);
    ++now;
    if (log) routing.begin(stream);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, (parts + 1) * sizeof(unsigned long long),
                                      stream));
    if (ghosts_fell && ghosts.size() > 0) {
      route_ghosts<<<tile_blocks_for(ghosts.size()), block_threads, 0, stream>>>(
          ghosts.data(), ghosts.size(), ghost_sent.data(), t.data(), bounds, send_ids.data(),
          send_values.data(), counters.data());
      TROPIC_CUDA_CHECK(cudaGetLastError());
    } else if (!ghosts_fell && I.nvals() > 0) {
      route_improved<<<tile_blocks_for(I.nvals()), block_threads, 0, stream>>>(
          I.indices(), I.nvals(), t.data(), bounds, unsigned(me), bucket, send_ids.data(),
          send_values.data(), counters.data(), B.indices(), counters.data() + parts,
          stamps.data(), now);
      TROPIC_CUDA_CHECK(cudaGetLastError());
    }
    if (log) routing.end(stream);
    read_counters();
    std::vector<unsigned long long> sends(counters_host.data(), counters_host.data() + parts);
    const std::size_t kept = counters_host.data()[parts];
    struct row { unsigned long long to[max_parts]; };
    row mine{};
    std::copy(sends.begin(), sends.end(), mine.to);
    const std::vector<row> all = meet(mine);
    std::vector<std::size_t> receive(parts, 0);
    std::size_t received = 0;
    std::uint64_t sent_by_all = 0;
    for (std::size_t q = 0; q < parts; ++q) {
      receive[q] = q == me ? 0 : std::size_t(all[q].to[me]);
      received += receive[q];
      if (q != me) exchanged += sends[q];
      for (std::size_t r = 0; r < parts; ++r) sent_by_all += r == q ? 0 : all[q].to[r];
    }
    const std::size_t cap = own.size();
    std::vector<std::size_t> send_at(parts), send_count(parts), recv_at(parts);
    for (std::size_t q = 0; q < parts; ++q) {
      send_at[q] = matrix.ranges()[q].begin;
      send_count[q] = std::size_t(sends[q]);
      recv_at[q] = q * cap;
    }
    if (log) sending.begin(stream);
    matrix.comms().exchange_entries(me, send_ids.data(), send_values.data(), send_at, send_count,
                                    recv_ids.data(), recv_values.data(), recv_at, receive, stream,
                                    [&](auto&& nccl) { transfer(nccl); });
    if (log) sending.end(stream);
    if (log) applying.begin(stream);
    // a closure's `in` is drained (count 0) when its round ends
    vertex* into = ghosts_fell ? in->indices() : B.indices();
    unsigned long long* into_count = ghosts_fell ? in->count() : counters.data() + parts;
    for (std::size_t q = 0; q < parts; ++q) {
      if (!receive[q]) continue;
      apply_received<<<tile_blocks_for(receive[q]), block_threads, 0, stream>>>(
          recv_ids.data() + q * cap, recv_values.data() + q * cap, receive[q], t.data(),
          own.begin, bucket, into, into_count, stamps.data(), now);
      TROPIC_CUDA_CHECK(cudaGetLastError());
    }
    if (log) applying.end(stream);
    if (log) {
      wait();  // the events below are on the stream
      step_sample& last = log->back();
      last.route_ms = routing.ms();
      last.send_ms = sending.ms();
      last.apply_ms = applying.ms();
    }
    if (ghosts_fell) {
      received_into_in = received;
      return sent_by_all;
    }
    std::size_t next = kept;
    if (received > 0) {
      read_counters();
      next = counters_host.data()[parts];
    }
    B.set_nvals(next);
    std::uint64_t total = 0;
    for (std::uint64_t c : meet(std::uint64_t(next))) total += c;
    return total;
  }

  // One push of `u` over a part of A: t = min(t, A' min.+ u), `improved` = the entries it
  // improved into `range`.
  void push(const sparse_vector<W>& u, const matrix_operand<W>& part, sparse_vector<W>& improved,
            value_range<W> range, statistics& st) {
    improved.clear();
    if (u.nvals() == 0) return;
    descriptor push_only;
    push_only.dir = direction::push;
    vxm(t, no_mask<W>(), accumulator::min, min_plus<W>(), u, part, push_only, ctx, &improved,
        range);
    st.vertices_relaxed += u.nvals();
  }

  // The arcs of part `which` (light or heavy) leaving the listed rows (ids null: every row this
  // rank owns), summed over every rank.
  std::uint64_t arcs_over_ranks(const vertex* ids, std::size_t count,
                                const light_heavy_split<W>& split, row_part which) {
    const csr_view<W> view = A.view();
    const arc_index* first = which == row_part::light ? view.row_offsets : split.rows();
    const arc_index* last = which == row_part::light ? split.rows() : view.row_offsets + 1;
    TROPIC_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, sizeof(unsigned long long), stream));
    if (count)
      count_arcs<<<blocks_for(count), block_threads, 0, stream>>>(ids, own.begin, count, first,
                                                                  last, counters.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
    read_counters();
    std::uint64_t total = 0;
    for (std::uint64_t c : meet(std::uint64_t(counters_host.data()[0])))
      total += c;
    return total;
  }

  // Beamer et al.'s direction rule as one GPU's vxm applies it (operators.hpp, descriptor), over
  // every rank's frontier: pull when it holds more than n / pull_ratio rows; on a skewed graph,
  // for more than n / arc_count_rows_ratio rows, when its arcs exceed the part's arcs over
  // pull_arc_ratio (a pull reads every arc of the part once, a push the frontier's with an
  // atomic each).
  bool pulls(const sparse_vector<W>& u, std::uint64_t frontier_rows,
             const light_heavy_split<W>& split, row_part which) {
    if (!may_pull) return false;
    const graph_stats& g = matrix.stats();
    const descriptor defaults;
    if (frontier_rows * defaults.pull_ratio > n) return true;
    const bool skewed = double(g.max_degree) >= tuning::skewed_degree_ratio * g.avg_degree;
    if (!skewed || frontier_rows * tuning::arc_count_rows_ratio <= n) return false;
    std::uint64_t& part_arcs = which == row_part::light ? light_arcs : heavy_arcs;
    if (part_arcs == ~0ull) part_arcs = arcs_over_ranks(nullptr, own.size(), split, which);
    return arcs_over_ranks(u.indices(), u.nvals(), split, which) * defaults.pull_arc_ratio >
           part_arcs;
  }
  std::uint64_t light_arcs = ~0ull, heavy_arcs = ~0ull;  // over every rank, once known

  // t = min(t, A min.+ u) over this rank's rows, u = every rank's frontier (gathered): only
  // this rank's vertices improve, so there is nothing to send; `improved` = those improved
  // into `range`. The pull is floored by min(u) (mxv of a sparse u), so it reads only the arcs
  // that can still improve a row: one GPU's live-rows pull, over the part's own rows (the
  // others hold no arcs, and a min pull visits only rows that do: pull_rows).
  void pull(const sparse_vector<W>& u, const matrix_operand<W>& part, sparse_vector<W>& improved,
            value_range<W> range, statistics& st) {
    improved.clear();
    const std::vector<std::uint64_t> counts = meet(std::uint64_t(u.nvals()));
    std::vector<std::size_t> at(parts + 1, 0);
    for (std::size_t q = 0; q < parts; ++q) at[q + 1] = at[q] + std::size_t(counts[q]);
    if (log) gathering.begin(stream);
    if (counts[me]) {
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(gathered.indices() + at[me], u.indices(),
                                        counts[me] * sizeof(vertex), cudaMemcpyDeviceToDevice,
                                        stream));
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(gathered.values() + at[me], u.values(),
                                        counts[me] * sizeof(W), cudaMemcpyDeviceToDevice, stream));
    }
    // every rank's frontier to every rank, rank q's into its block of `gathered`
    if (parts > 1)
      transfer([&] {
        matrix.comms().broadcast_blocks(
            me, {{gathered.indices(), sizeof(vertex)}, {gathered.values(), sizeof(W)}}, at,
            std::vector<std::size_t>(counts.begin(), counts.end()), stream);
      });
    if (log) gathering.end(stream);
    gathered.set_nvals(at[parts]);
    if (account.p) {
      ++account.p->pulls;
      account.p->gathered += at[parts] - counts[me];
    }
    descriptor pull_only;
    pull_only.dir = direction::pull;
    mxv(t, no_mask<W>(), accumulator::min, min_plus<W>(), part, gathered, pull_only, ctx,
        &improved, range);
    st.vertices_relaxed += u.nvals();
  }

  // One step from frontier u (frontier_rows over every rank) over a part of A, inside `bucket`;
  // B becomes this rank's vertices improved inside it. Returns the size of B over every rank.
  // A pull, or a push on one part, improves this rank's vertices only: the operator lists them
  // straight into B, as one GPU's step does, and nothing is routed or sent. A push on several
  // parts lists every improved entry in I for exchange() to route to its owner.
  std::uint64_t step(const sparse_vector<W>& u, std::uint64_t frontier_rows,
                     const matrix_operand<W>& part, value_range<W> bucket, statistics& st) {
    bool own_only = true;
    {
      const auto clock = account.phase(&distributed_profile::relax_ms);
      const auto begin = std::chrono::steady_clock::now();  // within the phase's clock
      const bool pulled = pulls(u, frontier_rows, *part.split, part.part);
      own_only = pulled || parts == 1;
      if (pulled)
        pull(u, part, B, bucket, st);
      else if (own_only)
        push(u, part, B, bucket, st);
      else
        push(u, part, I, value_range<W>{}, st);  // [0, ∞): wherever they lie
      if (log)
        log->push_back({pulled, part.part == row_part::heavy, frontier_rows,
                        milliseconds_since(begin), own_only ? B.nvals() : I.nvals(),
                        pulled ? gathering.ms() : 0});
    }
    if (account.p) ++account.p->steps;
    if (!own_only) {
      const auto routed = std::chrono::steady_clock::now();
      const std::uint64_t total = exchange(bucket);
      if (log) log->back().exchange_ms = milliseconds_since(routed);
      return total;
    }
    std::uint64_t total = 0;
    for (std::uint64_t c : meet(std::uint64_t(B.nvals()))) total += c;
    return total;
  }

  // This rank's ghosts in order, each sent nothing yet (infinity); returns how many over every
  // rank.
  std::uint64_t list_ghosts() {
    const csr_view<W> view = A.view();
    device_buffer<std::uint8_t> flag(n, stream);
    TROPIC_CUDA_CHECK(cudaMemsetAsync(flag.data(), 0, n, stream));
    const arc_index own_arcs = A.arcs();  // the part's rows: its own
    if (own_arcs > 0)
      mark_ghosts<<<blocks_for(own_arcs), block_threads, 0, stream>>>(view, own.begin, own.end,
                                                                       flag.data());
    TROPIC_CUDA_CHECK(cudaGetLastError());
    const thrust::counting_iterator<vertex> ids(0);
    std::size_t bytes = 0;
    TROPIC_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, bytes, ids, flag.data(),
                                                 send_ids.data(), counters.data(), n, stream));
    TROPIC_CUDA_CHECK(cub::DeviceSelect::Flagged(ctx.temp(bytes), bytes, ids, flag.data(),
                                                 send_ids.data(), counters.data(), n, stream));
    read_counters();
    const std::size_t count = counters_host.data()[0];
    ghosts = device_buffer<vertex>(count, stream);
    ghost_sent = dense_vector<W>(vertex(count), stream);
    if (count) {
      TROPIC_CUDA_CHECK(cudaMemcpyAsync(ghosts.data(), send_ids.data(), count * sizeof(vertex),
                                        cudaMemcpyDeviceToDevice, stream));
      assign(ghost_sent, no_mask<W>(), infinity<W>(), false, ctx);
    }
    std::uint64_t total = 0;
    for (std::uint64_t c : meet(std::uint64_t(count))) total += c;
    return total;
  }

  // Whether the light steps are closure rounds from the start: as opts.loop asks (host: steps;
  // device: rounds), else by policy::distributed from the rows' length and the ghosts over every
  // rank, which every rank counts alike, so all take the same path. Short rows behind thick
  // borders start with steps and may hand over to rounds (solve).
  void choose_rounds() {
    namespace p = policy::distributed;
    const bool automatic = opts.loop == loop_control::automatic;
    if (opts.loop == loop_control::device ||
        (automatic && p::short_rows(matrix.stats().max_degree))) {
      const std::uint64_t all = list_ghosts();
      may_hand_over = automatic && !p::thin_borders(all, n);
      if (!may_hand_over) start_rounds();
    }
  }
  void start_rounds() {
    closure_rounds = true;
    in.emplace(n, stream);
    spare.emplace(n, stream);
  }

  // A light step as a closure round: this rank's light loop of the bucket from its frontier (B,
  // or what the last round's exchange put in `in`) to a fixed point on its own part (one
  // GPU-driven kernel), then its fallen ghosts to their owners; returns the entries sent over
  // every rank.
  std::uint64_t closure_round(std::uint64_t frontier_rows, const matrix_operand<W>& part,
                              value_range<W> bucket) {
    {
      const auto clock = account.phase(&distributed_profile::relax_ms);
      const auto begin = std::chrono::steady_clock::now();
      // (the last round's copies from the pinned words are done: its exchange waited)
      bucket_host.data()[0] = bucket;
      if (B.nvals()) {  // the bucket's first round: `in` is empty
        frontier_host.data()[0] = B.nvals();
        TROPIC_CUDA_CHECK(cudaMemcpyAsync(in->indices(), B.indices(), B.nvals() * sizeof(vertex),
                                          cudaMemcpyDeviceToDevice, stream));
        TROPIC_CUDA_CHECK(cudaMemcpyAsync(in->count(), frontier_host.data(),
                                          sizeof(unsigned long long), cudaMemcpyHostToDevice,
                                          stream));
      }
      if (B.nvals() || received_into_in) {
        TROPIC_CUDA_CHECK(cudaMemcpyAsync(bucket_on_device.data(), bucket_host.data(),
                                          sizeof(value_range<W>), cudaMemcpyHostToDevice, stream));
        // one GPU's closure limits for graphs of short rows (delta_stepping_sssp): local rounds
        vxm_closure(t, min_plus<W>(), *in, part, ctx, *spare, bucket_on_device.data(),
                    closure_limits{});
      }
      B.clear();
      received_into_in = 0;
      if (log) log->push_back({false, false, frontier_rows, milliseconds_since(begin), 0, 0});
    }
    if (account.p) ++account.p->steps;
    const auto routed = std::chrono::steady_clock::now();
    const std::uint64_t total = exchange(bucket, true);
    if (log) log->back().exchange_ms = milliseconds_since(routed);
    return total;
  }

  W min_over_ranks(W x) {
    W lowest = infinity<W>();
    for (W y : meet(x)) lowest = y < lowest ? y : lowest;
    return lowest;
  }

  // The bucket loop; finish (distributed_finish.cuh) then makes the result.
  statistics solve() {
    sparse_vector<W> S(n, stream);
    TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
    group.barrier(me);
    // From here, as one GPU's solve is timed: the path's choice, the split, t's start.
    const auto start = std::chrono::steady_clock::now();
    statistics st;
    st.algorithm = algorithm_name(algorithm::delta_stepping);
    choose_rounds();
    if (closure_rounds && !(opts.delta > 0))  // from the start only
      buckets = bucket_bounds<W>(buckets.delta * policy::distributed::closure_delta_factor);
    st.delta = buckets.delta;
    const W cut = cutoff_limit<W>(opts.cutoff);
    auto has_heavy = [&] {
      return !std::isinf(buckets.delta) && !(matrix.stats().max_weight < buckets.delta);
    };
    std::optional<light_heavy_split<W>> split;
    split.emplace(A, buckets.delta, ctx);
    assign(t, no_mask<W>(), infinity<W>(), false, ctx);
    if (source >= own.begin && source < own.end) {
      sparse_vector<W> s(1, stream);
      s.upload({source}, {W(0)});
      assign(t, s, ctx);
    }

    // One GPU's widened tail (delta_stepping_schedule.cuh): within the first buckets, once
    // nearly every vertex with arcs is settled or in the next bucket, one last bucket
    // [(i+1)Δ, ∞) with every arc light finishes a short, wide search.
    namespace p = policy::delta_stepping;
    bool may_widen = !(opts.delta > 0) && !(opts.cutoff < std::numeric_limits<double>::infinity());
    const double with_arcs = double(n) - double(matrix.stats().isolated);
    std::uint64_t settled_before = 0, settled_here = 0;

    unsigned small_steps = 0;  // the hand-over's count (may_hand_over)
    std::uint64_t last_rows = 0;
    std::uint64_t i = 0;
    select(B, buckets.range(0), {});
    std::uint64_t pending = 0;
    for (std::uint64_t c : meet(std::uint64_t(B.nvals()))) pending += c;
    for (;;) {
      const value_range<W> bucket = buckets.range(i);
      ++st.buckets;
      settled_before += settled_here;
      settled_here = 0;
      std::uint64_t rounds_here = 0;
      do {
        // the light loop: tB = t .* B; t = min(t, AL' min.+ tB); B = improved inside bucket i
        while (pending > 0) {
          if (closure_rounds) {
            if (!rounds_here++) ++st.device_loop_buckets;
            pending = closure_round(pending, light(A, *split), bucket);
            continue;
          }
          gather(tB, t, B, ctx);
          const std::uint64_t rows = pending;
          pending = step(tB, rows, light(A, *split), bucket, st);
          ++st.iterations;
          // One GPU's hand-over to its GPU-driven loop (delta_stepping_schedule.cuh), here from
          // steps to rounds: after enough small steps in a row, the last not growing; decided
          // from counts every rank met, so all hand over at once.
          if (!may_hand_over) continue;
          namespace dl = policy::delta_stepping;
          small_steps = double(rows) * matrix.stats().avg_degree < dl::device_loop_step_arcs
                            ? small_steps + 1
                            : 0;
          const bool growing = double(rows) > dl::device_loop_growth * double(last_rows);
          last_rows = rows;
          if (small_steps >= dl::device_loop_small_steps && !growing) {
            may_hand_over = false;
            start_rounds();
          }
        }
        if (!has_heavy()) break;
        // S = bucket i, settled; t = min(t, AH' min.+ (t .* S)); stragglers (floats) into B
        select(S, bucket, {});
        settled_here = 0;
        for (std::uint64_t c : meet(std::uint64_t(S.nvals()))) settled_here += c;
        pending = step(S, settled_here, heavy(A, *split), bucket, st);
      } while (pending > 0);
      if (bucket.hi == infinity<W>()) break;
      // the next non-empty bucket: the least t[v] >= (i+1)Δ over every rank
      const W mine = select(B, buckets.range(i + 1), value_range<W>{bucket.hi, infinity<W>()});
      const W lowest = min_over_ranks(mine);
      if (lowest == infinity<W>() || lowest > cut) break;
      const std::uint64_t following = buckets.index_of(lowest);
      if (following != i + 1) select(B, buckets.range(following), {});
      pending = 0;
      for (std::uint64_t c : meet(std::uint64_t(B.nvals()))) pending += c;
      if (may_widen && has_heavy() && i + 1 < p::widen_tail_within_buckets &&
          double(settled_before + settled_here + (following == i + 1 ? pending : 0)) >=
              p::widen_tail_reached_share * with_arcs) {
        may_widen = false;
        buckets = bucket_bounds<W>::from(bucket.hi);
        split.emplace(A, buckets.delta, ctx);
        light_arcs = heavy_arcs = ~0ull;
        st.widened_at = double(bucket.hi);
        select(B, buckets.range(0), {});
        pending = 0;
        for (std::uint64_t c : meet(std::uint64_t(B.nvals()))) pending += c;
        i = 0;
        continue;
      }
      i = following;
    }
    wait();
    if (in) {  // the closures' steps and frontier rows (the stream is idle: no wait on a peer)
      std::uint64_t steps = 0, rows = 0;
      ctx.read_loop_statistics(steps, rows);
      st.iterations += steps;
      st.vertices_relaxed += rows;
    }
    meet(char(0));  // every rank done: the solve ends with the slowest
    st.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    account.close(st.milliseconds);  // finish() is not part of the account
    st.arcs_relaxed = ctx.read_arcs_scanned();
    st.host_round_trips = ctx.round_trips;
    return st;
  }
};


}  // namespace tropic::detail
