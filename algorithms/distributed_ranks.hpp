// The ranks of a multi-GPU solve (tropic/distributed.hpp): one host thread per part, each
// driving its own device, meeting at a host rendezvous to share the few numbers every rank needs
// (counts to size NCCL's receives, a bucket's minimum, the termination test). One process drives
// every GPU, so those numbers meet in host memory at the point where each rank has already waited
// for its own stream; a multi-process version would all-reduce them through NCCL instead.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <type_traits>
#include <vector>

#include "tropic/error.hpp"

namespace tropic::detail {

// Thrown in the ranks that were waiting when another rank failed; run_ranks rethrows the failed
// rank's own exception instead.
struct rank_failed {};

class rank_group {
 public:
  explicit rank_group(std::size_t ranks) : slots_(ranks), published_(ranks) {}
  std::size_t size() const noexcept { return slots_.size(); }

  // Every rank passes its value; returns every rank's, in rank order, once all have arrived.
  // Throws rank_failed when a rank failed (before or while waiting).
  template <class T>
  std::vector<T> all_gather(std::size_t rank, const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::unique_lock<std::mutex> lock(mutex_);
    if (failed_) throw rank_failed{};
    slots_[rank].resize(sizeof(T));
    std::memcpy(slots_[rank].data(), &value, sizeof(T));
    const std::size_t generation = generation_;
    if (++arrived_ == slots_.size()) {
      published_ = slots_;
      arrived_ = 0;
      ++generation_;
      ready_.notify_all();
    } else {
      ready_.wait(lock, [&] { return generation_ != generation || failed_; });
      if (generation_ == generation) throw rank_failed{};
    }
    std::vector<T> all(slots_.size());
    for (std::size_t r = 0; r < all.size(); ++r)
      std::memcpy(&all[r], published_[r].data(), sizeof(T));
    return all;
  }
  void barrier(std::size_t rank) { all_gather<char>(rank, 0); }

  // A rank failed: every waiting rank wakes and throws rank_failed.
  void fail() {
    std::lock_guard<std::mutex> lock(mutex_);
    failed_ = true;
    ready_.notify_all();
  }
  bool failed() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return failed_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<std::vector<unsigned char>> slots_, published_;
  std::size_t arrived_ = 0, generation_ = 0;
  bool failed_ = false;
};

// Runs body(rank) for rank = 0 .. ranks - 1, each on a thread of its own, and waits for all.
// When a rank throws, `group` fails (waiting ranks throw rank_failed and `on_failure(rank)` runs
// in each rank that ends by failing, e.g. to abort its NCCL communicator so that no device waits
// forever on a peer that is gone); then the first exception of a rank that failed on its own is
// rethrown.
void run_ranks(std::size_t ranks, rank_group& group, const std::function<void(std::size_t)>& body,
               const std::function<void(std::size_t)>& on_failure = {});

}  // namespace tropic::detail
