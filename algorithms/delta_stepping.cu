// Delta-stepping in the min-plus algebra (Meyer & Sanders' buckets, written as GraphBLAS
// operations after Sridhar et al., "Delta-stepping SSSP: from Vertices and Edges to GraphBLAS
// Implementations", 2019; the pseudo-code is quoted in DESIGN.md).
//
// Light and heavy arcs are the masked views AL = A .* (A <= Δ) and AH = A .* (A > Δ) of one
// weight-sorted matrix (light_heavy_split: one pass over the rows). Each line of the loop is one
// operator call. Host round trips: one counter read per light iteration (the size of the next
// B, fused into the push), and three per bucket (S, the heavy step's stragglers, the next
// bucket's lower end). Bellman-Ford is the same code with Δ = ∞: one bucket, every arc light.
//
// Correctness does not depend on the bucket arithmetic being exact: a heavy arc that lands back
// in the current bucket (possible only through floating-point rounding of the bucket bounds)
// is caught by the heavy step's `improved` output and sent through the light loop again.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tropic/detail/gpu_backends.hpp"
#include "tropic/operators.hpp"
#include "tropic/semiring.hpp"

namespace tropic::detail {

namespace {

// Bucket i holds distances in [bound(i), bound(i + 1)). Integers use an integral width D >= 1
// in exact W arithmetic (saturating at infinity, which leaves the last bucket open above);
// floats round i·Δ to W, which is monotone in i, so consecutive buckets tile the line.
template <class W>
struct bucket_bounds {
  double delta;  // the width actually used (integral for integer W)

  // A width at or beyond the largest finite W is one bucket (Bellman-Ford).
  static double width_for(double requested) {
    if (!(requested < double(std::numeric_limits<W>::max())))
      return std::numeric_limits<double>::infinity();
    if constexpr (std::is_integral_v<W>)
      return std::max(1.0, std::floor(requested));
    else
      return requested;
  }
  explicit bucket_bounds(double requested) : delta(width_for(requested)) {}

  W bound(std::uint64_t i) const {
    if (std::isinf(delta)) return i == 0 ? W(0) : infinity<W>();
    if constexpr (std::is_integral_v<W>) {
      using U = std::make_unsigned_t<W>;
      const U d = static_cast<U>(delta);
      if (i != 0 && U(infinity<W>()) / i < d) return infinity<W>();
      const U b = U(i) * d;
      return b >= U(infinity<W>()) ? infinity<W>() : W(b);
    } else {
      const double b = double(i) * delta;
      return b >= double(std::numeric_limits<W>::max()) ? infinity<W>() : W(b);
    }
  }
  value_range<W> range(std::uint64_t i) const { return {bound(i), bound(i + 1)}; }

  // The bucket holding the finite value x.
  std::uint64_t index_of(W x) const {
    if (std::isinf(delta)) return 0;
    double guess = std::floor(double(x) / delta);
    std::uint64_t i = guess > 0 ? static_cast<std::uint64_t>(guess) : 0;
    while (i > 0 && x < bound(i)) --i;
    while (!(x < bound(i + 1))) ++i;
    return i;
  }
};

}  // namespace

template <class W>
result<W> delta_stepping_sssp(const device_matrix<W>& A, vertex source, const options& opts) {
  const vertex n = A.rows();
  const bool bellman_ford = opts.algorithm == algorithm::bellman_ford;
  cuda_stream stream;
  gpu_context ctx(stream);
  const bucket_bounds<W> buckets(bellman_ford ? std::numeric_limits<double>::infinity()
                                              : resolve_delta(A, opts));
  const min_plus<W> min_plus_semiring;
  const descriptor desc;  // push/pull chosen per call from the frontier size
  op_counters counters;

  dense_vector<W> t(n, stream);
  sparse_vector<W> B(n, stream), tB(n, stream), S(n, stream);

  result<W> out;
  statistics& st = out.stats;
  st.algorithm = algorithm_name(opts.algorithm);
  st.delta = buckets.delta;

  cuda_timer timer(stream);
  // AL = A .* (A <= Δ), AH = A .* (A > Δ): per-row split offsets, one pass over the rows.
  const light_heavy_split<W> split(A, buckets.delta, ctx);
  const bool has_heavy = !std::isinf(buckets.delta);

  // t = ∞; t[s] = 0
  assign(t, no_mask<W>(), infinity<W>(), false, ctx);
  {
    sparse_vector<W> s(1, stream);
    s.upload({source}, {W(0)});
    assign(t, s, ctx);
  }

  std::uint64_t i = 0;
  for (;;) {
    const value_range<W> bucket = buckets.range(i);  // [iΔ, (i+1)Δ)
    ++st.buckets;
    // B = { v : iΔ <= t[v] < (i+1)Δ }
    select(B, t, bucket, ctx);
    do {
      while (B.nvals() > 0) {
        // tB = t .* B
        gather(tB, t, B, ctx);
        st.vertices_relaxed += tB.nvals();
        // t = min(t, AL' min.+ tB);  B = { v : r[v] < t[v], iΔ <= r[v] < (i+1)Δ }
        vxm(t, no_mask<W>(), accumulator::min, min_plus_semiring, tB, light(A, split), desc, ctx,
            &B, bucket, &counters);
        ++st.iterations;
      }
      if (!has_heavy) break;
      // S = { v : iΔ <= t[v] < (i+1)Δ }: every vertex settled in bucket i (with its distance)
      select(S, t, bucket, ctx);
      st.vertices_relaxed += S.nvals();
      // t = min(t, AH' min.+ (t .* S)); B = stragglers back in bucket i (rounding only)
      vxm(t, no_mask<W>(), accumulator::min, min_plus_semiring, S, heavy(A, split), desc, ctx,
          &B, bucket, &counters);
    } while (B.nvals() > 0);

    // Skip empty buckets: i = bucket of min{ t[v] : t[v] >= (i+1)Δ }
    if (bucket.hi == infinity<W>()) break;
    const W next = reduce_min(t, value_range<W>{bucket.hi, infinity<W>()}, ctx);
    if (next == infinity<W>()) break;
    i = buckets.index_of(next);
  }
  st.milliseconds = timer.elapsed_ms();
  st.arcs_relaxed = ctx.read_arcs_scanned();
  finish_result(A, t.data(), source, opts, out, stream);
  return out;
}

#define TROPIC_INSTANTIATE(W) \
  template result<W> delta_stepping_sssp<W>(const device_matrix<W>&, vertex, const options&);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)

}  // namespace tropic::detail
