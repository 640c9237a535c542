#include "distributed_ranks.hpp"

#include <thread>

namespace tropic::detail {

void run_ranks(std::size_t ranks, rank_group& group, const std::function<void(std::size_t)>& body,
               const std::function<void(std::size_t)>& on_failure) {
  std::vector<std::exception_ptr> failures(ranks);
  std::vector<std::thread> threads;
  threads.reserve(ranks);
  auto run = [&](std::size_t rank) {
    try {
      body(rank);
      return;
    } catch (const rank_failed&) {
      // another rank failed first: its exception is the one to report
    } catch (...) {
      failures[rank] = std::current_exception();
    }
    group.fail();
    if (on_failure) {
      try {
        on_failure(rank);
      } catch (...) {
      }
    }
  };
  try {
    for (std::size_t r = 1; r < ranks; ++r) threads.emplace_back(run, r);
  } catch (...) {  // a thread that cannot start: the started ones must not wait for it
    group.fail();
    for (std::thread& t : threads) t.join();
    throw error(error_code::out_of_memory, "could not start a host thread for every GPU");
  }
  if (ranks > 0) run(0);
  for (std::thread& t : threads) t.join();
  for (std::exception_ptr& f : failures)
    if (f) std::rethrow_exception(f);
  if (group.failed())
    throw error(error_code::cuda, "a rank of the multi-GPU solve failed without an exception");
}

}  // namespace tropic::detail
