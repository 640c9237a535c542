// NCCL for the multi-GPU solve (GPU builds): one communicator per part, made by ncclCommInitAll
// for the matrix's devices, and the calls the solve makes -- a grouped exchange of byte blocks
// with every peer (and of (id, value) entries on top of it), a broadcast of each part's entries
// or distances, and a min all-reduce. Without
// NCCL (TROPIC_HAVE_NCCL undefined) only one part exists and none of them is called.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#if defined(TROPIC_HAVE_NCCL)
#include <nccl.h>
#endif

#include "tropic/error.hpp"

namespace tropic::detail {

#if defined(TROPIC_HAVE_NCCL)
inline void nccl_check(ncclResult_t status, const char* what) {
  if (status != ncclSuccess)
    throw error(error_code::cuda, std::string("NCCL ") + what + ": " + ncclGetErrorString(status));
}
#endif

#if defined(TROPIC_HAVE_NCCL)
// ncclGroupStart .. ncclGroupEnd: a call inside that throws still ends the group, so that the
// thread's next NCCL call does not join a group left open.
class nccl_group {
 public:
  nccl_group() { nccl_check(ncclGroupStart(), "group start"); }
  ~nccl_group() {
    if (open_) ncclGroupEnd();
  }
  nccl_group(const nccl_group&) = delete;
  nccl_group& operator=(const nccl_group&) = delete;
  void end() {
    open_ = false;
    nccl_check(ncclGroupEnd(), "group end");
  }

 private:
  bool open_ = true;
};
#endif

// The calling thread's current device, restored at scope exit: rank 0 of a solve or a build
// runs on the caller's thread and moves it to its part's device.
class current_device_guard {
 public:
  current_device_guard() {
    if (cudaGetDevice(&device_) != cudaSuccess) device_ = -1;
  }
  ~current_device_guard() {
    if (device_ >= 0) cudaSetDevice(device_);
  }
  current_device_guard(const current_device_guard&) = delete;
  current_device_guard& operator=(const current_device_guard&) = delete;

 private:
  int device_ = -1;
};

class nccl_communicators {
 public:
  explicit nccl_communicators(const std::vector<int>& devices) : devices_(devices) { init(); }
  ~nccl_communicators() { destroy(false); }
  nccl_communicators(const nccl_communicators&) = delete;
  nccl_communicators& operator=(const nccl_communicators&) = delete;

  // Held for a whole solve: the communicators carry one solve's traffic at a time, so solves on
  // one matrix from several threads run one after another.
  std::mutex& solving() noexcept { return solving_; }

  // Before a solve: communicators aborted by a failed solve are made again.
  void ensure() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (aborted_) {
      destroy(true);
      init();
    }
  }
  // A rank failed mid-exchange: its communicator is aborted so that no peer waits forever.
  void abort(std::size_t rank) {
#if defined(TROPIC_HAVE_NCCL)
    std::lock_guard<std::mutex> lock(mutex_);
    aborted_ = true;
    if (rank < comms_.size() && comms_[rank]) {
      ncclCommAbort(comms_[rank]);
      comms_[rank] = nullptr;
    }
#else
    (void)rank;
#endif
  }

  // Sends `send_bytes[q]` bytes at send[q] to every peer q != rank and receives recv_bytes[q]
  // bytes from it into recv[q], all as one NCCL group on `stream`.
  void exchange(std::size_t rank, const std::vector<const void*>& send,
                const std::vector<std::size_t>& send_bytes, const std::vector<void*>& recv,
                const std::vector<std::size_t>& recv_bytes, cudaStream_t stream) {
#if defined(TROPIC_HAVE_NCCL)
    nccl_group group;
    for (std::size_t q = 0; q < comms_.size(); ++q) {
      if (q == rank) continue;
      if (send_bytes[q])
        nccl_check(ncclSend(send[q], send_bytes[q], ncclUint8, int(q), comms_[rank], stream),
                   "send");
      if (recv_bytes[q])
        nccl_check(ncclRecv(recv[q], recv_bytes[q], ncclUint8, int(q), comms_[rank], stream),
                   "receive");
    }
    group.end();
#else
    (void)rank, (void)send, (void)send_bytes, (void)recv, (void)recv_bytes, (void)stream;
#endif
  }

  // (id, value) entries to and from every peer q != rank, ids then values (two groups, so that
  // each message is one contiguous block): to q the send_count[q] entries at send_at[q], from q
  // recv_count[q] entries into recv_at[q]. around(group) runs each group (the profile times it).
  template <class Id, class Value, class Around>
  void exchange_entries(std::size_t rank, const Id* send_ids, const Value* send_values,
                        const std::vector<std::size_t>& send_at,
                        const std::vector<std::size_t>& send_count, Id* recv_ids,
                        Value* recv_values, const std::vector<std::size_t>& recv_at,
                        const std::vector<std::size_t>& recv_count, cudaStream_t stream,
                        Around&& around) {
    const std::size_t parts = comms_.size();
    std::vector<const void*> out(parts);
    std::vector<void*> in(parts);
    std::vector<std::size_t> out_bytes(parts), in_bytes(parts);
    for (int pass = 0; pass < 2; ++pass) {
      const std::size_t item = pass == 0 ? sizeof(Id) : sizeof(Value);
      for (std::size_t q = 0; q < parts; ++q) {
        out[q] = pass == 0 ? static_cast<const void*>(send_ids + send_at[q])
                           : static_cast<const void*>(send_values + send_at[q]);
        in[q] = pass == 0 ? static_cast<void*>(recv_ids + recv_at[q])
                          : static_cast<void*>(recv_values + recv_at[q]);
        out_bytes[q] = q == rank ? 0 : send_count[q] * item;
        in_bytes[q] = q == rank ? 0 : recv_count[q] * item;
      }
      around([&] { exchange(rank, out, out_bytes, in, in_bytes, stream); });
    }
  }

  // An array of `item`-byte elements (broadcast_blocks).
  struct block_array {
    void* data;
    std::size_t item;
  };
  // Every part q broadcasts the count[q] elements at at[q] of each array, in place, to every rank,
  // all in one NCCL group: a pull's gather of (id, value) entries, a solve's distances.
  void broadcast_blocks(std::size_t rank, std::initializer_list<block_array> arrays,
                        const std::vector<std::size_t>& at, const std::vector<std::size_t>& count,
                        cudaStream_t stream) {
#if defined(TROPIC_HAVE_NCCL)
    if (comms_.size() < 2) return;
    nccl_group group;
    for (std::size_t q = 0; q < comms_.size(); ++q) {
      if (!count[q]) continue;
      for (const block_array& a : arrays) {
        unsigned char* block = static_cast<unsigned char*>(a.data) + at[q] * a.item;
        nccl_check(ncclBroadcast(block, block, count[q] * a.item, ncclUint8, int(q),
                                 comms_[rank], stream),
                   "broadcast");
      }
    }
    group.end();
#else
    (void)rank, (void)arrays, (void)at, (void)count, (void)stream;
#endif
  }

  // In place: data[i] = the least data[i] over the ranks.
  void all_reduce_min(std::size_t rank, unsigned long long* data, std::size_t count,
                      cudaStream_t stream) {
#if defined(TROPIC_HAVE_NCCL)
    if (comms_.size() < 2) return;
    nccl_check(ncclAllReduce(data, data, count, ncclUint64, ncclMin, comms_[rank], stream),
               "all-reduce");
#else
    (void)rank, (void)data, (void)count, (void)stream;
#endif
  }

 private:
  void init() {
#if defined(TROPIC_HAVE_NCCL)
    comms_.assign(devices_.size(), nullptr);
    if (devices_.size() > 1)
      nccl_check(ncclCommInitAll(comms_.data(), int(devices_.size()), devices_.data()),
                 "communicator set-up");
#else
    comms_.assign(devices_.size(), nullptr);
#endif
    aborted_ = false;
  }
  void destroy(bool aborted) {
#if defined(TROPIC_HAVE_NCCL)
    for (ncclComm_t& c : comms_)
      if (c) {
        if (aborted)
          ncclCommAbort(c);
        else
          ncclCommDestroy(c);
        c = nullptr;
      }
#else
    (void)aborted;
#endif
  }

  std::vector<int> devices_;
#if defined(TROPIC_HAVE_NCCL)
  std::vector<ncclComm_t> comms_;
#else
  std::vector<void*> comms_;
#endif
  std::mutex mutex_, solving_;
  bool aborted_ = false;
};

}  // namespace tropic::detail
