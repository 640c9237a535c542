// Dispatch of the pull (SpMV over a view's rows from a dense u): clears outside the mask for
// replace, draws the improved count, and picks the kernel family -- pull_group_per_row when every
// row is short, else the merge path: by warps (pull_warp_path) over a whole matrix with no mask
// and no floor, by blocks (pull_merge_path) where rows are skipped, with pull_live_rows and
// pull_long_rows beside it for a floored pull over a large view (chosen on the device by
// pull_live_choice) -- sizing grids and scratch from the device's SM count and occupancy.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "../kernels/elementwise.cuh"
#include "../kernels/pull_group_per_row.cuh"
#include "../kernels/pull_live_rows.cuh"
#include "../kernels/pull_merge_path.cuh"
#include "../kernels/pull_warp_path.cuh"

namespace tropic::detail {

// A pull as the public operators call it: w<mask> = accum(w, view ⊕.⊗ u) over the view's rows,
// each row that improved into improved_range listed in `improved`.
template <class W>
struct pull_operands {
  dense_vector<W>* w;
  mask_view<W> mask;
  accumulator accum;
  csr_view<W> view;   // rows = output positions
  row_ranges ranges;  // each row's part (pull_ranges_of)
  const W* u;         // dense input
  sparse_vector<W>* improved = nullptr;  // null: no list
  value_range<W> improved_range = {};
  op_counters* counters = nullptr;
  pull_floor<W> floor = {};  // none: every row may change
  // The view's row r is w's row first_row + r, and listed as such: a pull over a window of the
  // rows (pull_rows) with w and the list in whole-matrix numbering.
  vertex first_row = 0;
};

// Overrides of a pull's launch shape (tests cross tiles and blocks on small graphs, sweeps time
// shapes): the merge path's path items per warp (by warps) or per block (by blocks), 0 for as
// many as the device holds at once; log2 of pull_group_per_row's lanes per row, negative for
// pull_group_log2's choice.
struct pull_shape {
  arc_index block_items = 0;
  int group_log2 = -1;
  bool check_rows = false;  // the merge path by blocks even where no row is skipped
};

// The warps' merge path for tile shape Policy (the plain SpMV's kernel). Its registers are held
// to the policy's blocks a SM, else tuning::pull_warp_min_blocks's for S and W, or to what
// 1,536 threads a SM allow.
template <class S, class W, class Policy>
constexpr auto pull_warp_kernel = pull_warp_path<
    S, W, Policy::threads, Policy::warp_items,
    std::min(Policy::warp_min_blocks > 0
                 ? Policy::warp_min_blocks
                 : tuning::pull_warp_min_blocks(sizeof(W), S::is_min_monoid),
             1536 / Policy::threads)>;

// ranges_of with what the merge-path pull needs of a part: the light rows' prefix and the
// part's arcs, which the split computes on a pull's first call and keeps (a scan and a round
// trip). A pull by a group of lanes per row (pull_by_group_per_row) never reads them.
template <class W>
row_ranges pull_ranges_of(const csr_view<W>& view, const matrix_operand<W>& a, bool transposed,
                          const descriptor& desc, gpu_context& ctx) {
  row_ranges r = ranges_of(view, a, transposed);
  if (a.part != row_part::all && !pull_by_group_per_row(view, desc)) {
    arc_index light_arcs = 0;
    r.light_before = a.split->light_before(view, transposed, light_arcs, ctx);
    r.part_arcs = a.part == row_part::light ? light_arcs : view.arcs - light_arcs;
  }
  return r;
}

// The largest W at most x (x a double that need not be a W: a weight statistic, or Δ).
template <class W>
W round_down(double x) {
  if constexpr (std::is_integral_v<W>) {
    if (!(x < double(std::numeric_limits<W>::max()))) return std::numeric_limits<W>::max();
    if (!(x > double(std::numeric_limits<W>::lowest()))) return std::numeric_limits<W>::lowest();
    return static_cast<W>(std::floor(x));
  } else {
    W c = static_cast<W>(x);
    if (double(c) > x) c = std::nextafter(c, -std::numeric_limits<W>::infinity());
    return c;
  }
}

// A lower bound of the weights in operand a's part (a pull floor's second operand): the
// matrix's least weight, and for the heavy part Δ as well (its arcs have double(w) > Δ). The
// statistics are doubles, exact for every W but 64-bit integers, whose double may lie above the
// weight by half a step: one step below it is a bound.
template <class W>
W least_weight_of(const device_matrix<W>& A, const matrix_operand<W>& a) {
  double least = A.stats().min_weight;
  if constexpr (std::is_integral_v<W> && sizeof(W) == 8)
    least = std::nextafter(least, -std::numeric_limits<double>::infinity());
  if (a.part == row_part::heavy && a.split) least = std::max(least, a.split->delta());
  return round_down<W>(least);
}


// pull_fixup after the merge path's kernel (by warps or by blocks), a warp for each of its
// `runs` runs; launched early, so that its launch overlaps the kernel's last blocks.
template <class S, class W>
void launch_fixup(const row_ranges& ranges, const pull_block_record<W>* records, unsigned runs,
                  arc_index run, W* w, accumulator accum, vertex* list, unsigned long long* count,
                  const value_range<W>& improved_range, const unsigned* skip, cudaStream_t s) {
  launch_early(pull_fixup<S, W>, blocks_for(std::size_t(runs) * 32), tuning::block_threads, s,
               ranges, records, runs, run, w, accum, list, count, improved_range, skip);
}

// Policy: the merge path's tile shape (pull_policy).
template <class S, class W = typename S::value_type,
          class Policy = pull_default_policy_for<S, W>>
void pull_dispatch(const pull_operands<W>& op, const descriptor& desc, gpu_context& ctx,
                   pull_shape shape = {}) {
  cudaStream_t s = ctx.stream();
  const csr_view<W>& view = op.view;
  const row_ranges& ranges = op.ranges;
  const mask_view<W>& mask = op.mask;
  const accumulator accum = op.accum;
  const W* u = op.u;
  W* w = op.w->data() + op.first_row;
  const value_range<W> improved_range = op.improved_range;
  pull_floor<W> floor = op.floor;
  const vertex n = view.n;
  if (desc.replace && mask.kind != mask_kind::none) {
    mask_view<W> inverse = mask;
    inverse.complement = !mask.complement;
    assign_masked<<<blocks_for(n), tuning::block_threads, 0, s>>>(w, n, inverse, S::identity(),
                                                                 false, S::identity());
    check_launch();
  }
  unsigned long long* count =
      op.improved ? reinterpret_cast<unsigned long long*>(ctx.zeroed_counter()) : nullptr;
  vertex* list = op.improved ? op.improved->indices() : nullptr;
  constexpr int threads = Policy::threads, items = Policy::items;
  // A part of the view, a mask or a floor may skip rows, which the warps' merge path cannot;
  // pull_method::live_rows asks for the kernels beside the merge path by blocks.
  const bool check_rows = shape.check_rows || ranges.part != row_part::all ||
                          mask.kind != mask_kind::none || floor.least_input ||
                          desc.pull == pull_method::live_rows;
  if (n > 0 && pull_by_group_per_row(view, desc)) {
    const unsigned log2 =
        shape.group_log2 >= 0 ? unsigned(shape.group_log2) : pull_group_log2(view);
    constexpr std::uint64_t threads = tuning::pull_group_threads;
    const std::uint64_t grid = ((std::uint64_t(n) << log2) + threads - 1) / threads;
    pull_group_per_row<S, W, tuning::pull_group_items><<<unsigned(grid), threads, 0, s>>>(
        view, ranges, u, w, mask, accum, log2, list, count, improved_range, ctx.arcs_scanned(),
        floor);
    check_launch();
  } else if (n > 0 && !check_rows) {
    // Each warp an equal run of whole tiles' worth of path items, as many warps as the device
    // holds at once (two or four times as many were no faster, bench/results/h200-run50/);
    // shape.block_items sets the run instead. Any run gives the same result.
    const arc_index total = arc_index(n) + view.arcs;
    constexpr arc_index tile = 32 * arc_index(Policy::warp_items);
    constexpr int warps_per_block = threads / 32;
    arc_index run = shape.block_items;
    if (run == 0) {
      static resident_cache slots;
      const arc_index warps = arc_index(slots.blocks(pull_warp_kernel<S, W, Policy>, threads)) *
                              warps_per_block;
      run = ((total + tile - 1) / tile + warps - 1) / warps * tile;
    }
    const arc_index warps = (total + run - 1) / run;
    const arc_index grid = (warps + warps_per_block - 1) / warps_per_block;
    if (warps > arc_index(std::numeric_limits<int>::max()))
      throw error(error_code::invalid_value,
                  "pull: " + std::to_string(run) + " path items per warp make " +
                      std::to_string(warps) + " warps, more than the fixup's grid holds");
    auto* records = static_cast<pull_block_record<W>*>(
        ctx.pull_blocks(std::size_t(warps) * sizeof(pull_block_record<W>)));
    // The warps' starts, kept with the matrix where the view is one of its own.
    const vertex* starts = merge_path_starts(view, run);
    pull_warp_kernel<S, W, Policy><<<unsigned(grid), threads, 0, s>>>(
        view, ranges, u, w, accum, list, count, improved_range, run, records,
        ctx.arcs_scanned(), starts);
    check_launch();
    // Warp 0 starts at row 0: a single warp leaves no row to finish.
    if (warps > 1)
      launch_fixup<S>(ranges, records, unsigned(warps), run, w, accum, list, count,
                      improved_range, nullptr, s);
  } else if (n > 0) {
    if (ranges.part != row_part::all && !ranges.light_before)
      throw error(error_code::invalid_value, "pull: a light or heavy part without pull_ranges_of");
    const arc_index total = arc_index(n) + ranges.part_arcs;  // path items: row ends and arcs
    constexpr arc_index tile = arc_index(threads) * items;
    arc_index block_items = shape.block_items;
    if (block_items == 0) {
      // As many blocks as the device holds at once, each an equal run of whole tiles' worth of
      // items: one search per block, and no second wave to leave SMs idle at the end. The grid
      // size only balances the work; any value gives the same result.
      static resident_cache slots_cache;
      const arc_index slots =
          slots_cache.blocks(pull_merge_path<S, W, threads, items>, threads);
      const arc_index blocks = std::min(slots, (total + tile - 1) / tile);
      block_items = (total + blocks - 1) / blocks;
    }
    const arc_index grid = (total + block_items - 1) / block_items;  // every block non-empty
    if (grid > arc_index(std::numeric_limits<int>::max()))
      throw error(error_code::invalid_value,
                  "pull: " + std::to_string(block_items) + " path items per block make " +
                      std::to_string(grid) + " blocks, more than a grid holds");
    // A floored pull may run as pull_live_rows instead, chosen on the device by
    // pull_live_choice: every kernel is launched, and those not chosen leave at once. Scratch:
    // the merge path's block records, then the long rows' counts, the choice, the long rows'
    // records and their chunks.
    const bool live_rows = desc.pull == pull_method::live_rows ||
                           (floor.least_input && view.arcs >= tuning::pull_live_min_arcs &&
                            desc.pull == pull_method::automatic);
    const std::size_t record_bytes =
        (std::size_t(grid) * sizeof(pull_block_record<W>) + 7) / 8 * 8;
    // pull_live_rows' long rows: at most arcs / pull_live_long_row of them, with at most that
    // many chunks besides arcs / pull_long_chunk.
    const std::size_t long_records = std::size_t(view.arcs / tuning::pull_live_long_row) + 1;
    const std::size_t long_parts =
        long_records + std::size_t(view.arcs / tuning::pull_long_chunk);
    const std::size_t long_record_bytes = (long_records * sizeof(pull_long_row<W>) + 7) / 8 * 8;
    auto* scratch = static_cast<unsigned char*>(ctx.pull_blocks(
        record_bytes + (live_rows ? 3 * sizeof(unsigned long long) + long_record_bytes +
                                        long_parts * sizeof(pull_long_part)
                                  : 0)));
    auto* records = reinterpret_cast<pull_block_record<W>*>(scratch);
    if (live_rows) {
      auto* counts = reinterpret_cast<unsigned long long*>(scratch + record_bytes);
      auto* choice = reinterpret_cast<unsigned*>(counts + 2);
      unsigned char* lists = reinterpret_cast<unsigned char*>(counts + 3);
      const pull_long_rows_list<W> long_rows{
          counts, reinterpret_cast<pull_long_row<W>*>(lists),
          reinterpret_cast<pull_long_part*>(lists + long_record_bytes)};
      TROPIC_CUDA_CHECK(cudaMemsetAsync(counts, 0, 2 * sizeof *counts, s));
      pull_live_choice<S><<<1, tuning::block_threads, 0, s>>>(
          view, ranges, w, mask, floor, desc.pull == pull_method::live_rows, choice);
      check_launch();
      floor.by_live_rows = choice;
      // Grid-stride over the rows with the blocks the device holds at once: when the merge path
      // runs the pull, this kernel's blocks only leave, and a block per 256 rows took 12.7 us
      // to do so (bench/results/h100-run22/sweeps/).
      static resident_cache live_rows_blocks;
      const unsigned live_grid = unsigned(std::min<std::size_t>(
          live_rows_blocks.blocks(pull_live_rows<S, W>, tuning::block_threads),
          blocks_for((std::size_t(n) + 31) / 32 * 32)));
      pull_live_rows<S><<<live_grid, tuning::block_threads, 0, s>>>(
          view, ranges, u, w, mask, accum, floor, list, count, improved_range, long_rows,
          ctx.arcs_scanned());
      check_launch();
      pull_long_rows<S><<<tuning::pull_long_rows_blocks_per_sm * sm_count(),
                          tuning::block_threads, 0, s>>>(view, ranges, u, w, accum, floor,
                                                         long_rows, list, count, improved_range,
                                                         ctx.arcs_scanned());
      check_launch();
    }
    pull_merge_path<S, W, threads, items><<<unsigned(grid), threads, 0, s>>>(
        view, ranges, u, w, mask, accum, list, count, improved_range, block_items, records,
        ctx.arcs_scanned(), floor);
    check_launch();
    // Block 0 starts at row 0: a single block leaves no row to finish.
    if (grid > 1)
      launch_fixup<S>(ranges, records, unsigned(grid), block_items, w, accum, list, count,
                      improved_range, floor.by_live_rows, s);
  }
  if (op.counters) {
    op.counters->pull_calls++;
    op.counters->rows += n;
    op.counters->arcs += view.arcs;  // upper bound: rows of the part only are read
  }
  finish_improved(op.improved, count, ctx);
  if (op.improved && op.first_row && op.improved->nvals()) {
    offset_indices<<<blocks_for(op.improved->nvals()), tuning::block_threads, 0, s>>>(
        op.improved->indices(), op.improved->nvals(), op.first_row);
    check_launch();
  }
}

}  // namespace tropic::detail
