// resize_fresh (tropic/detail/host_pages.hpp): the same vector as a plain resize, zeros of every
// size, whether the huge-page advice covers part of the storage, all of it or none.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tropic/detail/host_pages.hpp"

TEST_SUITE("host_pages") {
  TEST_CASE("resize_fresh: count value-initialized entries, any size") {
    for (std::size_t count : {std::size_t(0), std::size_t(1), std::size_t(1000),
                              (std::size_t(2) << 20) / 4 - 1, (std::size_t(6) << 20) / 4 + 3}) {
      CAPTURE(count);
      std::vector<std::uint32_t> v;
      tropic::detail::resize_fresh(v, count);
      CHECK(v.size() == count);
      CHECK(std::all_of(v.begin(), v.end(), [](std::uint32_t x) { return x == 0; }));
      std::vector<double> d;
      tropic::detail::resize_fresh(d, count);
      CHECK(d.size() == count);
      CHECK(std::count(d.begin(), d.end(), 0.0) == std::ptrdiff_t(count));
    }
  }
}
