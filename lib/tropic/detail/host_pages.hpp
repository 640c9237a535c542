// Internal: large result vectors on the host. Value-initializing a fresh std::vector takes every
// page's first-touch fault on one thread: 570-950 ms for 1 GB on the GPU machine's host, 190-280
// ms with its range advised to transparent huge pages first (bench/results/h200-run46/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tropic::detail {

// v (empty) resized to count value-initialized entries, the whole 2 MB pages of its storage
// advised to be huge first: Linux's THP in its "madvise" mode takes them, elsewhere (or when the
// kernel refuses) the advice is a no-op and the resize the plain one.
template <class T>
void resize_fresh(std::vector<T>& v, std::size_t count) {
  v.reserve(count);
#if defined(__linux__)
  constexpr std::uintptr_t huge = std::uintptr_t(2) << 20;
  const std::uintptr_t lo = (reinterpret_cast<std::uintptr_t>(v.data()) + huge - 1) & ~(huge - 1);
  const std::uintptr_t hi = reinterpret_cast<std::uintptr_t>(v.data() + count) & ~(huge - 1);
  if (count > 0 && hi > lo) (void)madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
#endif
  v.resize(count);
}

}  // namespace tropic::detail
