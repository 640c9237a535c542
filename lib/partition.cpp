#include "tropic/partition.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "tropic/error.hpp"

namespace tropic {

std::vector<row_range> partition_rows(const std::vector<arc_index>& row_offsets,
                                      std::size_t parts) {
  if (row_offsets.empty())
    throw error(error_code::invalid_value, "partition_rows: row_offsets needs n + 1 entries");
  return partition_rows(row_offsets.data(), static_cast<vertex>(row_offsets.size() - 1), parts);
}

std::vector<row_range> partition_rows(const arc_index* row_offsets, vertex n, std::size_t parts) {
  if (parts == 0)
    throw error(error_code::invalid_value, "partition_rows: the number of parts must be >= 1");
  // cost(u) = row_offsets[u] + u, the arcs and rows before row u: nondecreasing, so each
  // boundary is a binary search for the first row whose prefix cost reaches k / parts of the
  // total. 128-bit products: arcs + rows may exceed 2^64 / parts.
  using wide = unsigned __int128;
  const wide total = wide(row_offsets[n]) + n;
  std::vector<row_range> out(parts);
  vertex previous = 0;
  for (std::size_t k = 0; k < parts; ++k) {
    vertex boundary = n;
    if (k + 1 < parts) {
      const wide target = total * (k + 1) / parts;
      vertex lo = previous, hi = n;  // first u in [previous, n] with cost(u) >= target
      while (lo < hi) {
        const vertex mid = lo + (hi - lo) / 2;
        if (wide(row_offsets[mid]) + mid < target)
          lo = mid + 1;
        else
          hi = mid;
      }
      boundary = lo;
    }
    out[k] = {previous, boundary};
    previous = boundary;
  }
  return out;
}

std::vector<row_range> partition_vertices(vertex n, std::size_t parts) {
  if (parts == 0)
    throw error(error_code::invalid_value, "partition_vertices: the number of parts must be >= 1");
  std::vector<row_range> out(parts);
  const std::uint64_t q = n / parts, r = n % parts;
  // The first r parts take one row more.
  auto begin = [&](std::uint64_t k) {
    return static_cast<vertex>(q * k + std::min<std::uint64_t>(k, r));
  };
  for (std::size_t k = 0; k < parts; ++k) out[k] = {begin(k), begin(k + 1)};
  return out;
}

void check_row_range(row_range rows, vertex n, const char* who) {
  if (rows.begin > rows.end)
    throw error(error_code::invalid_value, std::string(who) + ": row range [" +
                                               std::to_string(rows.begin) + ", " +
                                               std::to_string(rows.end) + ") has first > last");
  if (rows.end > n)
    throw error(error_code::invalid_value,
                std::string(who) + ": row range [" + std::to_string(rows.begin) + ", " +
                    std::to_string(rows.end) + ") ends past the graph's " + std::to_string(n) +
                    " rows");
}

}  // namespace tropic
