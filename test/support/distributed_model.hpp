// The several-GPU delta-stepping's exchange protocol (algorithms/delta_stepping_distributed.cu,
// issue 38) run on the CPU over P simulated ranks, for CI, which has no GPU and no NCCL:
//  - the same 1D row partition (partition_rows of the host CSR);
//  - each rank's dense view t of every vertex: exact for its own, for the others the least value
//    it has sent their owner;
//  - a push relaxes the rank's frontier into its own view, lists each improved vertex once, and
//    routes the improved entries it does not own to their owners (v, t[v] after the push), which
//    apply them with a min;
//  - a pull (symmetric graphs only) gathers every rank's frontier and improves the rank's own
//    rows alone; such a step, and any step on one part, sends nothing;
//  - the next frontier is each rank's own vertices improved inside the bucket; the loop ends, and
//    the next bucket is chosen, on counts and minima over every rank;
//  - with closure rounds (graphs of short rows), a light step instead runs each rank's light loop
//    to a fixed point on its own rows, then sends each vertex it does not own whose view fell
//    below what it last sent that vertex's owner.
// The ranks run one after another within a step whose phases (relax, route, apply) end together,
// as the ranks' meetings make them end on the GPUs. What the GPU solver adds on top (the
// direction rule's arc counts, the widened tail, Δ from the graph's statistics) changes when a
// step pulls and which buckets exist, never the protocol: here the pull rule and Δ are given.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/partition.hpp"

namespace tropic::testing {

// When a step pulls, on a symmetric graph (otherwise every step pushes).
enum class pull_rule { never, always, large_frontier /* more than n / 2 rows */ };

template <class W>
class distributed_model {
 public:
  using list = std::vector<vertex>;

  std::uint64_t steps = 0, pulls = 0;
  std::uint64_t sent = 0;  // entries a rank sent to a peer

  distributed_model(const csr<W>& g, std::size_t parts, double delta, pull_rule rule,
                    bool closure_rounds = false)
      : g_(g), ranges_(partition_rows(g, parts)), delta_(delta), rule_(rule),
        may_pull_(compute_stats(g).symmetric), closure_rounds_(closure_rounds),
        t_(parts, std::vector<W>(g.n, infinity<W>())),
        sent_to_owner_(parts, std::vector<W>(g.n, infinity<W>())) {
    for (W w : g.weights) has_heavy_ = has_heavy_ || !light(w);
  }

  // Delta-stepping from s; the owners' values are the distances.
  std::vector<W> solve(vertex s) {
    t_[owner(s)][s] = W(0);
    std::uint64_t i = 0;
    std::vector<list> B = select(i);
    for (;;) {
      const double hi = upper(i);
      do {
        while (total(B) > 0)  // the light loop
          B = closure_rounds_ ? closure_round(B, i) : step(B, false, i);
        if (!has_heavy_) break;
        B = step(select(i), true, i);  // bucket i, settled, over its heavy arcs
      } while (total(B) > 0);
      if (hi == std::numeric_limits<double>::infinity()) break;
      // the next non-empty bucket: the least own value at or above hi over every rank
      W lowest = infinity<W>();
      for (std::size_t p = 0; p < parts(); ++p)
        for (vertex v = ranges_[p].begin; v < ranges_[p].end; ++v)
          if (!(double(t_[p][v]) < hi) && t_[p][v] < lowest) lowest = t_[p][v];
      if (lowest == infinity<W>()) break;
      i = std::max<std::uint64_t>(i + 1, std::uint64_t(std::floor(double(lowest) / delta_)));
      B = select(i);
    }
    std::vector<W> d(g_.n);
    for (vertex v = 0; v < g_.n; ++v) d[v] = t_[owner(v)][v];
    return d;
  }

  std::size_t parts() const { return ranges_.size(); }
  const std::vector<row_range>& ranges() const { return ranges_; }
  std::size_t owner(vertex v) const {
    std::size_t p = 0;
    while (v >= ranges_[p].end) ++p;
    return p;
  }
  // Rank p's view of v.
  W view(std::size_t p, vertex v) const { return t_[p][v]; }

 private:
  bool light(W w) const { return !(double(w) > delta_); }  // AL = A .* (A <= Δ)
  double lower(std::uint64_t i) const { return double(i) * delta_; }
  double upper(std::uint64_t i) const {
    return std::isinf(delta_) ? std::numeric_limits<double>::infinity() : double(i + 1) * delta_;
  }
  bool inside(W x, std::uint64_t i) const {
    return x != infinity<W>() && !(double(x) < lower(i)) && double(x) < upper(i);
  }
  static std::size_t total(const std::vector<list>& lists) {
    std::size_t k = 0;
    for (const list& l : lists) k += l.size();
    return k;
  }

  // Each rank's own vertices inside bucket i.
  std::vector<list> select(std::uint64_t i) const {
    std::vector<list> out(parts());
    for (std::size_t p = 0; p < parts(); ++p)
      for (vertex v = ranges_[p].begin; v < ranges_[p].end; ++v)
        if (inside(t_[p][v], i)) out[p].push_back(v);
    return out;
  }

  // One step from each rank's frontier F[p] over the light or heavy arcs; returns each rank's
  // own vertices improved inside bucket i.
  std::vector<list> step(const std::vector<list>& F, bool heavy, std::uint64_t i) {
    ++steps;
    const std::size_t frontier = total(F);
    const bool pull = may_pull_ && (rule_ == pull_rule::always ||
                                    (rule_ == pull_rule::large_frontier && 2 * frontier > g_.n));
    // tB = t .* B on every rank: the step reads the frontier's values as they were at its start
    std::vector<std::vector<W>> values(parts());
    for (std::size_t p = 0; p < parts(); ++p)
      for (vertex u : F[p]) values[p].push_back(t_[p][u]);
    std::vector<list> next(parts());
    std::vector<char> listed(g_.n, 0);  // the stamps: a vertex joins its owner's next once
    auto join = [&](std::size_t p, vertex v) {
      if (inside(t_[p][v], i) && !listed[v]) {
        listed[v] = 1;
        next[p].push_back(v);
      }
    };
    if (pull) {
      // every rank's frontier gathered on every rank; each improves its own rows only
      ++pulls;
      std::vector<W> u(g_.n, infinity<W>());
      for (std::size_t p = 0; p < parts(); ++p)
        for (std::size_t k = 0; k < F[p].size(); ++k) u[F[p][k]] = values[p][k];
      for (std::size_t p = 0; p < parts(); ++p)
        for (vertex v = ranges_[p].begin; v < ranges_[p].end; ++v) {
          W best = t_[p][v];
          for (arc_index a = g_.row_offsets[v]; a < g_.row_offsets[v + 1]; ++a)
            if (light(g_.weights[a]) != heavy && u[g_.columns[a]] != infinity<W>())
              best = std::min(best, W(u[g_.columns[a]] + g_.weights[a]));
          if (best < t_[p][v]) {
            t_[p][v] = best;
            join(p, v);
          }
        }
      return next;
    }
    // push: each rank relaxes its frontier's arcs into its own view, listing what improved
    std::vector<list> improved(parts());
    for (std::size_t p = 0; p < parts(); ++p) {
      std::vector<char> once(g_.n, 0);
      for (std::size_t k = 0; k < F[p].size(); ++k) {
        const vertex u = F[p][k];
        for (arc_index a = g_.row_offsets[u]; a < g_.row_offsets[u + 1]; ++a) {
          if (light(g_.weights[a]) == heavy) continue;
          const vertex v = g_.columns[a];
          const W x = W(values[p][k] + g_.weights[a]);
          if (!(x < t_[p][v])) continue;
          t_[p][v] = x;
          if (!once[v]) {
            once[v] = 1;
            improved[p].push_back(v);
          }
        }
      }
    }
    // route: own entries into next, the others to their owners as (v, t[v]); then apply
    std::vector<std::vector<std::vector<std::pair<vertex, W>>>> to(
        parts(), std::vector<std::vector<std::pair<vertex, W>>>(parts()));
    for (std::size_t p = 0; p < parts(); ++p)
      for (vertex v : improved[p]) {
        const std::size_t q = owner(v);
        if (q == p) {
          join(p, v);
        } else {
          to[p][q].emplace_back(v, t_[p][v]);
          ++sent;
        }
      }
    for (std::size_t q = 0; q < parts(); ++q)
      for (std::size_t p = 0; p < parts(); ++p)
        for (const auto& [v, d] : to[p][q])
          if (d < t_[q][v]) {
            t_[q][v] = d;
            join(q, v);
          }
    return next;
  }

  // A light step as a closure round: each rank pushes its frontier's light arcs into its own view
  // and goes on from what improved inside bucket i (its own rows only) until nothing does; then
  // its views that fell below what it last sent go to their owners, who apply them with a min.
  // (The GPUs end the loop when no rank sent anything, without counting what the entries
  // improved: at most one more round than here, an empty one.)
  std::vector<list> closure_round(const std::vector<list>& F, std::uint64_t i) {
    ++steps;
    for (std::size_t p = 0; p < parts(); ++p) {
      list work = F[p];
      while (!work.empty()) {
        std::vector<W> values;
        for (vertex u : work) values.push_back(t_[p][u]);
        list next;
        std::vector<char> once(g_.n, 0);
        for (std::size_t k = 0; k < work.size(); ++k) {
          const vertex u = work[k];
          if (owner(u) != p) continue;  // no rows in this rank's part
          for (arc_index a = g_.row_offsets[u]; a < g_.row_offsets[u + 1]; ++a) {
            if (!light(g_.weights[a])) continue;
            const vertex v = g_.columns[a];
            const W x = W(values[k] + g_.weights[a]);
            if (!(x < t_[p][v])) continue;
            t_[p][v] = x;
            if (inside(x, i) && !once[v]) {
              once[v] = 1;
              next.push_back(v);
            }
          }
        }
        work = std::move(next);
      }
    }
    std::vector<list> next(parts());
    std::vector<char> listed(g_.n, 0);
    for (std::size_t p = 0; p < parts(); ++p)
      for (vertex v = 0; v < g_.n; ++v) {
        const std::size_t q = owner(v);
        if (q == p || !(t_[p][v] < sent_to_owner_[p][v])) continue;
        sent_to_owner_[p][v] = t_[p][v];
        ++sent;
        if (t_[p][v] < t_[q][v]) {
          t_[q][v] = t_[p][v];
          if (inside(t_[q][v], i) && !listed[v]) {
            listed[v] = 1;
            next[q].push_back(v);
          }
        }
      }
    return next;
  }

  const csr<W>& g_;
  std::vector<row_range> ranges_;
  double delta_;
  pull_rule rule_;
  bool may_pull_;
  bool closure_rounds_;
  bool has_heavy_ = false;
  std::vector<std::vector<W>> t_;  // t_[p]: rank p's view of every vertex
  // sent_to_owner_[p][v]: the least value rank p's closure rounds sent v's owner
  std::vector<std::vector<W>> sent_to_owner_;
};

}  // namespace tropic::testing
