// Device vectors and the execution context the operators share (GPU builds; plain C++ header).
//
// A dense_vector<T> holds every entry; "no entry" is the identity of the semiring in use (for
// min-plus: infinity<T>()), which is how a dense GraphBLAS vector of distances behaves under the
// MIN monoid. A sparse_vector<T> is an index list with values, like a GraphBLAS vector in
// sparse form; its entry count lives on the host, refreshed by the operator that produced it
// (one counter read through pinned memory per producing call).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/device_memory.hpp"

namespace tropic {

// Per-solve execution state: the stream, a growing CUB temporary-storage buffer, a pinned
// counter for entry counts, and a per-vertex stamp array the push operator uses to list each
// improved vertex once per call.
class gpu_context {
 public:
  explicit gpu_context(cudaStream_t stream) : stream_(stream), counter_(counter_words) {}
  cudaStream_t stream() const noexcept { return stream_; }

  // Temporary storage of at least `bytes` (reused across calls; grows, never shrinks).
  void* temp(std::size_t bytes);
  // A device counter, zeroed on the stream, for an operator's output count.
  std::uint64_t* zeroed_counter() { return zeroed_counters(1); }
  // Copies the device counter to pinned memory and waits: the host round trip of a step.
  std::uint64_t read_counter() { return read_counters(1)[0]; }
  // The same for up to counter_words words at once (an operator with two outputs to read, such
  // as select_reduce_min): one copy and one wait for all of them.
  static constexpr std::size_t counter_words = 2;
  std::uint64_t* zeroed_counters(std::size_t words);
  const std::uint64_t* read_counters(std::size_t words);
  // Copies one word an operator left in device memory (a scan's total) to pinned memory and
  // waits: a round trip without a counter to zero and copy into first.
  std::uint64_t read_word(const std::uint64_t* device_word);
  // Stamps for n vertices, and a fresh stamp value for one operator call.
  std::uint32_t* stamps(vertex n);
  std::uint32_t next_stamp() noexcept { return ++stamp_; }

  // A device counter the push kernels add the arcs they scan to (statistics without a sync);
  // read_arcs_scanned() reads it once, at the end of a solve.
  unsigned long long* arcs_scanned();
  std::uint64_t read_arcs_scanned();

  // Device-driven loops (tropic/device_loop.hpp): a stamp counter on the device (it counts down
  // from 2^32 - 1, the host's stamps up from 1) and [iterations, frontier vertices, buckets]
  // the loops' kernels add to. Allocated on first use.
  std::uint32_t* device_stamp();
  unsigned long long* loop_statistics();
  void read_loop_statistics(std::uint64_t& iterations, std::uint64_t& vertices,
                            std::uint64_t* buckets = nullptr);
  // A zeroed word for vxm_closure's persistent kernel: its third frontier length (each kernel
  // leaves it zero).
  unsigned long long* closure_scratch();

  // Scratch the pull operator reuses across calls (no allocation inside a solve's loop): bytes
  // for its per-block carry records, and bytes for the dense copy of a sparse input (vxm pull).
  // Each grows, never shrinks; stream-ordered, so a reallocation waits for earlier users.
  void* pull_blocks(std::size_t bytes);
  void* pull_dense_input(std::size_t bytes);

  std::uint64_t round_trips = 0;  // counter reads so far (statistics)

 private:
  cudaStream_t stream_;
  device_buffer<unsigned char> temp_;
  device_buffer<std::uint64_t> counter_device_;
  pinned_buffer<std::uint64_t> counter_;
  device_buffer<std::uint32_t> stamps_;
  device_buffer<unsigned long long> arcs_scanned_;
  device_buffer<std::uint32_t> device_stamp_;
  device_buffer<unsigned long long> loop_statistics_;
  device_buffer<unsigned long long> closure_scratch_;
  device_buffer<unsigned char> pull_blocks_;
  device_buffer<unsigned char> pull_dense_input_;
  std::uint32_t stamp_ = 0;
};

template <class T>
class dense_vector {
 public:
  dense_vector() = default;
  dense_vector(vertex n, cudaStream_t stream) : values_(n, stream) {}
  vertex size() const noexcept { return static_cast<vertex>(values_.size()); }
  T* data() noexcept { return values_.data(); }
  const T* data() const noexcept { return values_.data(); }
  std::vector<T> to_host() const { return values_.to_host(); }
  void upload(const std::vector<T>& h) { values_.upload(h.data(), h.size()); }

 private:
  device_buffer<T> values_;
};

template <class T>
class sparse_vector {
 public:
  sparse_vector() = default;
  // Capacity n: a sparse vector of dimension n never holds more than n entries.
  sparse_vector(vertex n, cudaStream_t stream) : n_(n), indices_(n, stream), values_(n, stream) {}
  // Indices alone, values() null: what the `improved` output of vxm and mxv receives, and a
  // worklist read by its indices, at half the memory. Operators that read or write values
  // (select, gather, an input u) need a full vector.
  static sparse_vector pattern(vertex n, cudaStream_t stream) {
    sparse_vector v;
    v.n_ = n;
    v.indices_ = device_buffer<vertex>(n, stream);
    return v;
  }
  vertex size() const noexcept { return n_; }
  std::size_t nvals() const noexcept { return nvals_; }
  void set_nvals(std::size_t k) noexcept { nvals_ = k; }
  void clear() noexcept { nvals_ = 0; }
  vertex* indices() noexcept { return indices_.data(); }
  const vertex* indices() const noexcept { return indices_.data(); }
  T* values() noexcept { return values_.data(); }
  const T* values() const noexcept { return values_.data(); }

  // Host copies of the first nvals() entries (tests).
  std::vector<vertex> indices_to_host() const {
    std::vector<vertex> h(nvals_);
    indices_.download(h.data(), nvals_);
    return h;
  }
  std::vector<T> values_to_host() const {
    std::vector<T> h(nvals_);
    values_.download(h.data(), nvals_);
    return h;
  }
  void upload(const std::vector<vertex>& idx, const std::vector<T>& val) {
    indices_.upload(idx.data(), idx.size());
    values_.upload(val.data(), val.size());
    nvals_ = idx.size();
  }

 private:
  vertex n_ = 0;
  std::size_t nvals_ = 0;
  device_buffer<vertex> indices_;
  device_buffer<T> values_;
};

}  // namespace tropic
