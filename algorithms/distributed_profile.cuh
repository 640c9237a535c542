// Where a distributed solve's time goes (tropic::distributed_profile, distributed.hpp): rank 0's
// account (the host time of its phases, its own waits and the ranks' meetings, CUDA events
// around its NCCL transfers; every method a plain pass-through when no profile was asked for),
// and every rank's record of its steps, merged into the profile's step log after the solve.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#include "distributed_ranks.hpp"
#include "tropic/device_memory.hpp"
#include "tropic/distributed.hpp"

namespace tropic::detail {

inline double milliseconds_since(std::chrono::steady_clock::time_point begin) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin)
      .count();
}

// One relaxation step as one rank saw it (distributed_profile::step_log).
struct step_sample {
  bool pull, heavy;
  std::uint64_t frontier;
  double relax_ms;
  std::uint64_t improved;
  double gather_ms;  // a pull's gather of the frontier on the stream (events); 0 for a push
  // The exchange after a push on several parts (0 when nothing was routed): its host time, and
  // on the stream its route kernel, NCCL transfers and apply kernels (events).
  double exchange_ms = 0, route_ms = 0, send_ms = 0, apply_ms = 0;
};

// Two CUDA events around work on a stream, made on first use and freed with the pair.
class event_span {
 public:
  event_span() = default;
  event_span(const event_span&) = delete;
  event_span& operator=(const event_span&) = delete;
  ~event_span() {
    if (begin_) cudaEventDestroy(begin_);
    if (end_) cudaEventDestroy(end_);
  }
  void begin(cudaStream_t stream) {
    if (!begin_) TROPIC_CUDA_CHECK(cudaEventCreate(&begin_));
    if (!end_) TROPIC_CUDA_CHECK(cudaEventCreate(&end_));
    TROPIC_CUDA_CHECK(cudaEventRecord(begin_, stream));
  }
  void end(cudaStream_t stream) { TROPIC_CUDA_CHECK(cudaEventRecord(end_, stream)); }
  // The time between them, once the stream has passed the second (0 before then).
  double ms() const {
    float ms = 0;
    if (!end_ || cudaEventQuery(end_) != cudaSuccess) return 0;
    TROPIC_CUDA_CHECK(cudaEventElapsedTime(&ms, begin_, end_));
    return ms;
  }

 private:
  cudaEvent_t begin_ = nullptr, end_ = nullptr;
};

// The ranks' records into p.step_log, step by step (every rank takes every step: they are
// collective).
inline void merge_step_logs(distributed_profile& p,
                            const std::vector<std::vector<step_sample>>& logs) {
  p.step_log.clear();
  std::size_t steps = logs.empty() ? 0 : logs[0].size();
  for (const auto& log : logs) steps = std::min(steps, log.size());
  for (std::size_t k = 0; k < steps; ++k) {
    distributed_profile::step s;
    s.pull = logs[0][k].pull;
    s.heavy = logs[0][k].heavy;
    s.frontier = logs[0][k].frontier;
    for (const auto& log : logs) {
      s.relax_ms.push_back(log[k].relax_ms);
      s.improved.push_back(log[k].improved);
      s.gather_ms.push_back(log[k].gather_ms);
      s.exchange_ms.push_back(log[k].exchange_ms);
      s.route_ms.push_back(log[k].route_ms);
      s.send_ms.push_back(log[k].send_ms);
      s.apply_ms.push_back(log[k].apply_ms);
    }
    p.step_log.push_back(std::move(s));
  }
}

class profile_account {
 public:
  distributed_profile* p = nullptr;  // null: nothing is counted

  profile_account() = default;
  profile_account(const profile_account&) = delete;
  profile_account& operator=(const profile_account&) = delete;
  ~profile_account() {
    for (auto [before, after] : events_) {
      if (before) cudaEventDestroy(before);
      if (after) cudaEventDestroy(after);
    }
  }

  // Adds the host time of its scope to a phase (relax, exchange, select): each phase ends in a
  // wait, the solver's or an operator's own, so its host time is also its device time.
  struct phase_clock {
    double* into;
    std::chrono::steady_clock::time_point begin = std::chrono::steady_clock::now();
    ~phase_clock() {
      if (into) *into += milliseconds_since(begin);
    }
  };
  phase_clock phase(double distributed_profile::*field) { return {p ? &(p->*field) : nullptr}; }

  template <class Drain>
  void wait(Drain&& drain) {
    if (!p) return drain();
    const auto begin = std::chrono::steady_clock::now();
    drain();
    ++p->waits;
    p->wait_ms += milliseconds_since(begin);
  }

  // group.all_gather, the ranks' host meeting.
  template <class T>
  std::vector<T> meet(rank_group& group, std::size_t me, const T& value) {
    if (!p) return group.all_gather(me, value);
    const auto begin = std::chrono::steady_clock::now();
    std::vector<T> all = group.all_gather(me, value);
    ++p->meetings;
    p->meet_ms += milliseconds_since(begin);
    return all;
  }

  // An NCCL exchange on `stream`, between two events.
  template <class F>
  void transfer(cudaStream_t stream, F&& nccl) {
    if (!p) return nccl();
    // In the list before they exist: the destructor frees what was made if a call below throws.
    auto& [before, after] = events_.emplace_back(nullptr, nullptr);
    TROPIC_CUDA_CHECK(cudaEventCreate(&before));
    TROPIC_CUDA_CHECK(cudaEventCreate(&after));
    TROPIC_CUDA_CHECK(cudaEventRecord(before, stream));
    nccl();
    TROPIC_CUDA_CHECK(cudaEventRecord(after, stream));
  }

  // The loop has ended (its stream drained): the transfers' times are read, and nothing after
  // counts.
  void close(double solve_ms) {
    if (!p) return;
    p->solve_ms = solve_ms;
    p->transfers = events_.size();
    for (auto [before, after] : events_) {
      float ms = 0;
      TROPIC_CUDA_CHECK(cudaEventElapsedTime(&ms, before, after));
      p->nccl_ms += ms;
    }
    p = nullptr;
  }

 private:
  std::vector<std::pair<cudaEvent_t, cudaEvent_t>> events_;
};

}  // namespace tropic::detail
