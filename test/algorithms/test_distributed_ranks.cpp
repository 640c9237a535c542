// The ranks of a multi-GPU solve on the CPU (algorithms/distributed_ranks.hpp): every rank sees
// every value in rank order at every meeting, and a rank that fails releases the others with its
// own exception reported -- no meeting waits forever.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "distributed_ranks.hpp"

using namespace tropic;
using detail::rank_group;
using detail::run_ranks;

TEST_SUITE("distributed_ranks") {
  TEST_CASE("all_gather hands every rank every value, in rank order, round after round") {
    for (std::size_t ranks : {1, 2, 3, 8}) {
      CAPTURE(ranks);
      rank_group group(ranks);
      std::atomic<int> wrong{0};
      run_ranks(ranks, group, [&](std::size_t me) {
        for (std::uint64_t round = 0; round < 500; ++round) {
          const auto all = group.all_gather(me, round * 100 + me);
          if (all.size() != ranks) ++wrong;
          for (std::size_t r = 0; r < all.size(); ++r)
            if (all[r] != round * 100 + r) ++wrong;
        }
      });
      CHECK(wrong == 0);
    }
  }

  TEST_CASE("a failing rank releases the waiting ones and its exception is the one reported") {
    rank_group group(4);
    std::atomic<int> aborted{0};
    std::atomic<int> released{0};
    auto body = [&](std::size_t me) {
      group.barrier(me);
      if (me == 2) throw std::runtime_error("rank 2 failed");
      try {
        group.barrier(me);  // rank 2 never arrives
      } catch (const detail::rank_failed&) {
        ++released;
        throw;
      }
    };
    CHECK_THROWS_WITH_AS(run_ranks(4, group, body, [&](std::size_t) { ++aborted; }),
                         "rank 2 failed", std::runtime_error);
    CHECK(released == 3);
    CHECK(aborted == 4);  // every rank that ended by failing ran on_failure (NCCL's abort)
    CHECK(group.failed());
    CHECK_THROWS_AS(group.all_gather(0, 1), detail::rank_failed);
  }

  TEST_CASE("a rank failing before the first meeting releases the others") {
    rank_group group(3);
    auto body = [&](std::size_t me) {
      if (me == 0) throw std::invalid_argument("rank 0 failed at once");
      group.barrier(me);
      group.barrier(me);
    };
    CHECK_THROWS_AS(run_ranks(3, group, body), std::invalid_argument);
  }
}
