// The device-driven form of delta-stepping's bucket loop (algorithms/delta_stepping_device.cu).
#pragma once

#include <cstdint>

#include "bucket_bounds.cuh"
#include "tropic/detail/gpu_backends.hpp"
#include "tropic/device_loop.hpp"
#include "tropic/operators.hpp"
#include "tropic/sssp.hpp"

namespace tropic::detail {

// Buckets i, i+1, ... to the end, driven by the GPU. Bucket i's light loop resumes from
// `frontier` (the host loop's B at the hand-over) when given, else from the whole bucket. The
// loop ends early at the first bucket above `cutoff` (a W bound, infinity<W>() for none), and,
// with `targets`, once every target is settled: it then returns the least distance of the
// buckets it did not process (every distance below it is final), else infinity<W>().
template <class W>
W device_driven_buckets(const device_matrix<W>& A, const light_heavy_split<W>& split,
                        const bucket_bounds<W>& buckets, bool has_heavy, std::uint64_t i,
                        const sparse_vector<W>* frontier, dense_vector<W>& t, gpu_context& ctx,
                        const closure_limits& closure, statistics& st, W cutoff,
                        const settle_targets* targets);

}  // namespace tropic::detail
