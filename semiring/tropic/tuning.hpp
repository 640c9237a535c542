// One home for the operators' tuning constants (CUB's tuning_*.cuh idea).
#pragma once

#include <cstddef>

namespace tropic::tuning {
inline constexpr unsigned block_threads = 256;
inline constexpr std::size_t max_blocks = 1u << 20;
// Push (merge-path): 256 threads x 4 arcs per tile; at most 132 SMs x 16 blocks in flight.
inline constexpr int push_threads = 256;
inline constexpr int push_items_per_thread = 4;
inline constexpr std::size_t push_max_blocks = 132 * 16;
// Pull: rows of at least this many arcs get a whole block (the rest a thread group each), and
// at most this many blocks walk the device-selected list of such rows.
inline constexpr unsigned long long pull_long_row = 4096;
inline constexpr unsigned pull_long_row_blocks = 132 * 4;
}  // namespace tropic::tuning
