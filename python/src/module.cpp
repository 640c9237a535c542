// tropic._tropic: the C++ API (tropic::sssp over tropic::csr<W>, and over device_matrix<W> in
// GPU builds) for the pure-Python package python/tropic/. Python hands over numpy arrays already
// in a weight type tropic ships; everything about scipy / python-graphblas inputs lives there.
//
// Copies: a CSR whose arrays already have tropic's layout (int64 or uint64 indptr, int32 or
// uint32 indices, weights of the graph's type, rows sorted without self-loops) is borrowed: the
// graph keeps references to the caller's arrays and uploads them to the GPU from there, with no
// host copy. Otherwise, and for the CPU algorithms, which read a tropic::csr<W> (std::vectors),
// the arrays are copied once (converting index types on the way), on first use. Nothing is
// copied per solve, and the result vectors are handed to numpy without a copy (moved into the
// array's owner).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/error.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"
#if defined(TROPIC_HAVE_CUDA)
#include <cuda_runtime.h>

#include "tropic/device_matrix.hpp"
#include "tropic/distributed.hpp"
#endif

namespace nb = nanobind;
using namespace nb::literals;

namespace {

// A 1-D, contiguous, host array of any dtype; its dtype is dispatched on at run time.
using any_array = nb::ndarray<nb::ndim<1>, nb::c_contig, nb::device::cpu, nb::ro>;

// Calls f(const T* data) with T the array's integer element type; index arrays may be int32,
// int64, uint32 or uint64 (what scipy and python-graphblas produce) without a conversion.
template <class F>
void with_index_type(const any_array& a, const char* what, F&& f) {
  const nb::dlpack::dtype t = a.dtype();
  if (t == nb::dtype<std::int32_t>()) return f(static_cast<const std::int32_t*>(a.data()));
  if (t == nb::dtype<std::int64_t>()) return f(static_cast<const std::int64_t*>(a.data()));
  if (t == nb::dtype<std::uint32_t>()) return f(static_cast<const std::uint32_t*>(a.data()));
  if (t == nb::dtype<std::uint64_t>()) return f(static_cast<const std::uint64_t*>(a.data()));
  throw tropic::error(tropic::error_code::invalid_value,
                      std::string(what) + " must be an array of int32, int64, uint32 or uint64");
}

template <class T>
tropic::vertex checked_vertex(T v, tropic::vertex n, const char* what, std::size_t at) {
  if constexpr (std::is_signed_v<T>) {
    if (v < 0)
      throw tropic::error(tropic::error_code::invalid_index,
                          std::string(what) + "[" + std::to_string(at) +
                              "] = " + std::to_string(v) + " is negative");
  }
  if (static_cast<std::uint64_t>(v) >= n)
    throw tropic::error(tropic::error_code::invalid_index,
                        std::string(what) + "[" + std::to_string(at) + "] = " + std::to_string(v) +
                            " is out of range: the graph has " + std::to_string(n) + " vertices");
  return static_cast<tropic::vertex>(v);
}

tropic::vertex checked_order(std::uint64_t n) {
  if (n >= std::uint64_t(1) << 32)
    throw tropic::error(tropic::error_code::invalid_value,
                        "the graph has " + std::to_string(n) +
                            " vertices; tropic's vertex ids are 32-bit (at most 2^32 - 1)");
  return static_cast<tropic::vertex>(n);
}

// The rows of A as arcs, for tropic::build_csr (which sorts, merges parallel arcs with
// keep_min, drops self-loops, rejects NaN and infinite weights and can symmetrize).
template <class W>
tropic::arc_list<W> arcs_from_coo(tropic::vertex n, const any_array& rows, const any_array& cols,
                                  const W* w, std::size_t m) {
  tropic::arc_list<W> arcs;
  arcs.n = n;
  arcs.src.resize(m);
  arcs.dst.resize(m);
  arcs.weight.assign(w, w + m);
  with_index_type(rows, "row indices", [&](auto* r) {
    for (std::size_t k = 0; k < m; ++k) arcs.src[k] = checked_vertex(r[k], n, "row", k);
  });
  with_index_type(cols, "column indices", [&](auto* c) {
    for (std::size_t k = 0; k < m; ++k) arcs.dst[k] = checked_vertex(c[k], n, "column", k);
  });
  return arcs;
}

template <class W>
bool finite_weight(W w) {
  if constexpr (std::is_floating_point_v<W>) return std::isfinite(w);
  return true;
}

// CSR arrays into tropic's CSR. When rows are already canonical (sorted strictly increasing
// columns, no self-loop, finite weights) the arrays are copied straight into the vectors, the
// one copy; otherwise the arcs go through build_csr, which makes them canonical.
template <class W>
tropic::csr<W> csr_from_arrays(tropic::vertex n, const any_array& indptr, const any_array& indices,
                               const W* w, std::size_t m, bool symmetrize) {
  tropic::csr<W> g;
  g.n = n;
  if (indptr.shape(0) != std::size_t(n) + 1)
    throw tropic::error(tropic::error_code::invalid_value,
                        "indptr has " + std::to_string(indptr.shape(0)) + " entries; a graph of " +
                            std::to_string(n) + " vertices needs " + std::to_string(n + 1ull));
  g.row_offsets.resize(std::size_t(n) + 1);
  with_index_type(indptr, "indptr", [&](auto* p) {
    for (std::size_t u = 0; u <= n; ++u) {
      if (p[u] < 0 || (u > 0 && p[u] < p[u - 1]) || static_cast<std::uint64_t>(p[u]) > m)
        throw tropic::error(tropic::error_code::invalid_value,
                            "indptr[" + std::to_string(u) + "] = " + std::to_string(p[u]) +
                                " is not a non-decreasing offset into " + std::to_string(m) +
                                " entries");
      g.row_offsets[u] = static_cast<tropic::arc_index>(p[u]);
    }
  });
  if (g.row_offsets[0] != 0 || g.row_offsets[n] != m)
    throw tropic::error(
        tropic::error_code::invalid_value,
        "indptr must start at 0 and end at the number of entries (" + std::to_string(m) + ")");
  g.columns.resize(m);
  bool canonical = !symmetrize;
  with_index_type(indices, "indices", [&](auto* c) {
    for (tropic::vertex u = 0; u < n; ++u)
      for (auto k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
        g.columns[k] = checked_vertex(c[k], n, "indices", k);
        if (g.columns[k] == u || (k > g.row_offsets[u] && g.columns[k] <= g.columns[k - 1]) ||
            !finite_weight(w[k]))
          canonical = false;
      }
  });
  if (canonical) {
    g.weights.assign(w, w + m);
    return g;
  }
  tropic::arc_list<W> arcs;
  arcs.n = n;
  arcs.src.resize(m);
  for (tropic::vertex u = 0; u < n; ++u)
    for (auto k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) arcs.src[k] = u;
  arcs.dst = std::move(g.columns);
  arcs.weight.assign(w, w + m);
  tropic::build_options b;
  b.symmetrize = symmetrize;
  return tropic::build_csr(arcs, b);
}

// Whether column ids have tropic::csr's layout bit for bit: 32 bits (signed ones hold the same
// bits once checked non-negative). Offsets are 64-bit in tropic and int32 in most scipy
// matrices: those n + 1 are widened, the m column ids and weights borrowed.
bool borrowable_columns(const any_array& indices) {
  const nb::dlpack::dtype c = indices.dtype();
  return c == nb::dtype<std::int32_t>() || c == nb::dtype<std::uint32_t>();
}
bool borrowable_offsets(const any_array& indptr) {
  const nb::dlpack::dtype p = indptr.dtype();
  return p == nb::dtype<std::int64_t>() || p == nb::dtype<std::uint64_t>();
}

// Reads the arrays without copying them: true when they are a valid CSR of n vertices whose rows
// are already canonical (strictly increasing columns, no self-loop, finite weights); false when
// they need build_csr; throws on an invalid offset or column, as csr_from_arrays does.
template <class W>
bool canonical_csr(tropic::vertex n, const any_array& indptr, const any_array& indices,
                   const W* w, std::size_t m) {
  if (indptr.shape(0) != std::size_t(n) + 1 || indices.shape(0) != m) return false;
  bool canonical = true;
  with_index_type(indptr, "indptr", [&](auto* p) {
    if (p[0] != 0 || static_cast<std::uint64_t>(p[n]) != m) {
      canonical = false;
      return;
    }
    for (std::size_t u = 1; u <= n; ++u)
      if (p[u] < p[u - 1]) {
        canonical = false;
        return;
      }
    with_index_type(indices, "indices", [&](auto* c) {
      for (tropic::vertex u = 0; u < n && canonical; ++u)
        for (auto k = std::size_t(p[u]); k < std::size_t(p[u + 1]); ++k) {
          const tropic::vertex v = checked_vertex(c[k], n, "indices", k);
          if (v == u || (k > std::size_t(p[u]) && c[k] <= c[k - 1]) || !finite_weight(w[k])) {
            canonical = false;
            break;
          }
        }
    });
  });
  return canonical;
}

// A numpy array that owns a std::vector moved into it: results leave without a copy.
template <class T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> to_numpy(std::vector<T>&& v) {
  auto* owned = new std::vector<T>(std::move(v));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(owned->data(), {owned->size()}, owner);
}

// Host memory for a result numpy will own, unfilled. A large one is aligned to 2 MiB and, where
// Linux offers it, marked for transparent huge pages, so that its first touch faults 2 MiB at a
// time; a small one is plain malloc (a huge page each would multiply its resident size).
struct large_free {
  void operator()(void* p) const noexcept { std::free(p); }
};
template <class T>
T* large_allocate(std::size_t count) {
  constexpr std::size_t huge = std::size_t(2) << 20;
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(T) - huge)
    throw tropic::error(tropic::error_code::out_of_memory,
                        "a result of " + std::to_string(count) + " entries does not fit the "
                        "host's address space");
  const std::size_t bytes = std::max<std::size_t>(count * sizeof(T), 1);
  void* p = nullptr;
  if (bytes < 8 * huge) {
    p = std::malloc(bytes);
  } else if (posix_memalign(&p, huge, (bytes + huge - 1) / huge * huge) == 0) {
#if defined(MADV_HUGEPAGE)
    madvise(p, (bytes + huge - 1) / huge * huge, MADV_HUGEPAGE);  // a hint: failure is harmless
#endif
  } else {
    p = nullptr;
  }
  if (!p)
    throw tropic::error(tropic::error_code::out_of_memory,
                        "no host memory for a result of " + std::to_string(bytes) + " bytes");
  return static_cast<T*>(p);
}
template <class T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> owning_numpy(std::unique_ptr<T, large_free>&& p,
                                                    std::size_t count) {
  nb::capsule owner(p.get(), [](void* q) noexcept { std::free(q); });
  T* data = p.release();  // the capsule owns it now
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(data, {count}, owner);
}

nb::dict stats_dict(const tropic::statistics& s) {
  nb::dict d;
  d["algorithm"] = s.algorithm;
  d["delta"] = s.delta;
  d["buckets"] = s.buckets;
  d["iterations"] = s.iterations;
  d["vertices_relaxed"] = s.vertices_relaxed;
  d["arcs_relaxed"] = s.arcs_relaxed;
  d["host_round_trips"] = s.host_round_trips;
  d["milliseconds"] = s.milliseconds;
  d["setup_milliseconds"] = s.setup_milliseconds;
  return d;
}

// One graph of weight type W: the CSR converted once, and in GPU builds the device matrix
// uploaded on the first GPU solve and kept for the next ones (per device ordinal).
template <class W>
class graph {
 public:
  explicit graph(tropic::csr<W>&& g) : g_(std::move(g)) {}

  static graph from_csr(std::uint64_t n, const any_array& indptr, const any_array& indices,
                        const any_array& data, bool symmetrize) {
    const W* w = weights(data, indices.shape(0));
    const tropic::vertex order = checked_order(n);
    if (!symmetrize && borrowable_columns(indices)) {
      bool canonical = false;
      {
        nb::gil_scoped_release unlocked;
        canonical = canonical_csr<W>(order, indptr, indices, w, data.shape(0));
      }
      if (canonical) {
        graph g;
        g.borrowed_ = std::make_unique<borrowed>(borrowed{indptr, indices, data, order, {}});
        if (!borrowable_offsets(indptr))
          with_index_type(indptr, "indptr", [&](auto* p) {
            g.borrowed_->offsets.assign(p, p + std::size_t(order) + 1);
          });
        return g;
      }
    }
    nb::gil_scoped_release unlocked;
    return graph(csr_from_arrays<W>(order, indptr, indices, w, data.shape(0), symmetrize));
  }

  static graph from_coo(std::uint64_t n, const any_array& rows, const any_array& cols,
                        const any_array& data, bool symmetrize) {
    if (rows.shape(0) != cols.shape(0))
      throw tropic::error(tropic::error_code::invalid_value,
                          "row and column index arrays differ in length (" +
                              std::to_string(rows.shape(0)) + " and " +
                              std::to_string(cols.shape(0)) + ")");
    const W* w = weights(data, rows.shape(0));
    nb::gil_scoped_release unlocked;
    tropic::build_options b;
    b.symmetrize = symmetrize;
    return graph(
        tropic::build_csr(arcs_from_coo<W>(checked_order(n), rows, cols, w, data.shape(0)), b));
  }

  tropic::vertex n() const noexcept { return borrowed_ ? borrowed_->view().n : g_.n; }
  tropic::arc_index arcs() const noexcept {
    return borrowed_ ? borrowed_->view().arcs() : g_.arcs();
  }
  // True while the graph reads the caller's arrays; host_bytes: what it holds of its own.
  bool borrows() const noexcept { return borrowed_ != nullptr; }
  std::size_t host_bytes() const noexcept {
    return g_.row_offsets.size() * sizeof(tropic::arc_index) +
           g_.columns.size() * sizeof(tropic::vertex) + g_.weights.size() * sizeof(W);
  }
  bool on_device() const {
#if defined(TROPIC_HAVE_CUDA)
    std::lock_guard<std::mutex> lock(*upload_);  // a solve may be uploading with the GIL released
    return d_matrix_ != nullptr || d_split_ != nullptr;
#else
    return false;
#endif
  }

  nb::tuple sssp(std::int64_t source, const std::string& algorithm, double delta, bool parents,
                 int device, double cutoff, const std::vector<int>& devices) {
    if (n() == 0)
      throw tropic::error(tropic::error_code::invalid_value,
                          "the graph has no vertices: there is no source");
    if (source < 0 || static_cast<std::uint64_t>(source) >= n())
      throw tropic::error(tropic::error_code::invalid_index,
                          "source vertex " + std::to_string(source) +
                              " is out of range: the graph has " + std::to_string(n()) +
                              " vertices (0-based)");
    tropic::options o;
    o.algorithm = tropic::parse_algorithm(algorithm);
    o.delta = delta;
    o.parents = parents;
    o.device = device;
    o.devices = devices;
    o.cutoff = cutoff;
    tropic::result<W> r;
    double call_ms = 0;
    {
      nb::gil_scoped_release unlocked;
      const auto t0 = std::chrono::steady_clock::now();
      r = solve(static_cast<tropic::vertex>(source), o);
      call_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count();
    }
    nb::dict s = stats_dict(r.stats);
    // The C++ call's wall time, solve and its setup: what Python adds is the rest of the call
    // (bench/python_overhead.py).
    s["call_milliseconds"] = call_ms;
    nb::object p = nb::none();
    if (parents) p = nb::cast(to_numpy(std::move(r.parents)));
    return nb::make_tuple(to_numpy(std::move(r.distances)), p, s);
  }

  // Many sources at once (tropic::sssp(A, sources)): k x n distances row-major, flat (Python
  // reshapes), parents likewise or None.
  nb::tuple sssp_many(const any_array& sources, const std::string& algorithm, double delta,
                      bool parents, int device, double cutoff, const std::vector<int>& devices) {
    std::vector<tropic::vertex> list(sources.shape(0));
    with_index_type(sources, "sources", [&](auto* s) {
      for (std::size_t i = 0; i < list.size(); ++i)
        list[i] = checked_vertex(s[i], n(), "sources", i);
    });
    tropic::options o;
    o.algorithm = tropic::parse_algorithm(algorithm);
    o.delta = delta;
    o.parents = parents;
    o.device = device;
    o.devices = devices;
    o.cutoff = cutoff;
    tropic::multi_result<W> r;
    // On the GPU the rows go straight into the arrays numpy will own (sssp_into): no k x n
    // vector filled first, and their pages first touched by copy_to_host's threads.
    std::unique_ptr<W, large_free> dist;
    std::unique_ptr<std::int64_t, large_free> par;
    const std::size_t size = list.size() * n();
    double call_ms = 0;
    {
      nb::gil_scoped_release unlocked;
      const auto t0 = std::chrono::steady_clock::now();
#if defined(TROPIC_HAVE_CUDA)
      auto [m, lock] = resident(o);
      // One GPU or several: resident() answers only the first, so `lock` is not held here.
      auto [split, split_lock] = m ? resident_split_none() : resident_split(o);
      if (m || split) {
        dist.reset(large_allocate<W>(size));
        if (parents) par.reset(large_allocate<std::int64_t>(size));
        r.stats = m ? tropic::sssp_into(*m, list, o, dist.get(), par.get())
                    : tropic::sssp_into(*split, list, o, dist.get(), par.get());
      } else
#endif
        r = solve(list, o);
      call_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count();
    }
    nb::dict s = stats_dict(r.stats);
    s["call_milliseconds"] = call_ms;
    nb::object p = nb::none();
    if (dist) {
      if (parents) p = nb::cast(owning_numpy(std::move(par), size));
      return nb::make_tuple(owning_numpy(std::move(dist), size), p, s);
    }
    if (parents) p = nb::cast(to_numpy(std::move(r.parents)));
    return nb::make_tuple(to_numpy(std::move(r.distances)), p, s);
  }

  // The CSR as numpy arrays (copies): what tropic.read_graph returns to build a scipy matrix.
  nb::tuple arrays() {
    const tropic::csr<W>& g = host_csr();
    std::vector<std::int64_t> indptr(g.row_offsets.begin(), g.row_offsets.end());
    std::vector<std::int32_t> indices(g.columns.begin(), g.columns.end());
    std::vector<W> data(g.weights);
    return nb::make_tuple(to_numpy(std::move(indptr)), to_numpy(std::move(indices)),
                          to_numpy(std::move(data)));
  }

 private:
  static const W* weights(const any_array& data, std::size_t m) {
    if (data.dtype() != nb::dtype<W>())
      throw tropic::error(tropic::error_code::invalid_value,
                          std::string("weights must be ") + tropic::weight_type_name<W>());
    if (data.shape(0) != m)
      throw tropic::error(tropic::error_code::invalid_value,
                          "weights have " + std::to_string(data.shape(0)) +
                              " entries and the index array " + std::to_string(m));
    return static_cast<const W*>(data.data());
  }

  // One source (a vertex) or many (a std::vector of them): sssp's overloads take either.
  template <class Sources>
  auto solve(const Sources& source, tropic::options o) {
#if defined(TROPIC_HAVE_CUDA)
    auto [m, lock] = resident(o);
    if (m) return tropic::sssp(*m, source, o);
    auto [split, split_lock] = resident_split(o);
    if (split) return tropic::sssp(*split, source, o);
#endif
    // CPU algorithms, and GPU ones where no device exists: sssp(csr) raises no_device then.
    return tropic::sssp(host_csr(), source, o);
  }

#if defined(TROPIC_HAVE_CUDA)
  // The device matrix a GPU call runs on, uploaded on first use and kept (per device ordinal),
  // with the lock that holds it for the call; none where the call belongs to the CPU. The same
  // choice as sssp(csr): automatic runs on the GPU where a device exists, and the resident
  // matrix's statistics pick the algorithm (algorithms/gpu_dispatch.cu).
  std::pair<const tropic::device_matrix<W>*, std::unique_lock<std::mutex>> resident(
      const tropic::options& o) {
    const bool gpu = tropic::is_gpu_algorithm(o.algorithm) ||
                     (o.algorithm == tropic::algorithm::automatic && tropic::gpu_available());
    // Several GPUs: resident_split's.
    if (!gpu || !tropic::gpu_available() || n() == 0 || o.devices.size() >= 2) return {};
    // A list of one device is that device, as in sssp(csr).
    const int device = o.devices.size() == 1 ? o.devices[0] : o.device;
    std::unique_lock<std::mutex> lock(*upload_);
    if (cudaSetDevice(device) != cudaSuccess) {
      cudaGetLastError();
      throw tropic::error(tropic::error_code::no_device,
                          "CUDA device " + std::to_string(device) + " is not usable");
    }
    if (!d_matrix_ || d_device_ != device) {
      d_matrix_.reset();
      d_split_.reset();  // one resident form at a time: the graph is never on a GPU twice
      // Borrowed arrays go up from where they are, checked again first (the caller may have
      // changed them since): no host copy.
      if (borrowed_ && borrowed_->still_canonical())
        d_matrix_ = std::make_unique<tropic::device_matrix<W>>(borrowed_->view());
      else
        d_matrix_ = std::make_unique<tropic::device_matrix<W>>(host_csr());
      d_device_ = device;
    }
    return {d_matrix_.get(), std::move(lock)};
  }

  // Several GPUs (two or more ordinals): the graph split by rows over them, uploaded on first
  // use and kept for that device list, as resident() keeps one GPU's matrix. Only delta-stepping
  // on non-negative weights runs split: other calls go to sssp(csr), which says why not. The
  // list is checked (ordinals that exist, none twice) before a kept split is let go for it.
  using split_ref =
      std::pair<const tropic::distributed_matrix<W>*, std::unique_lock<std::mutex>>;
  static split_ref resident_split_none() { return {}; }
  // Whether an arc weighs less than zero: such a graph is not split (a scan of the weights).
  bool negative_weight() const {
    if constexpr (std::is_unsigned_v<W>) {
      return false;
    } else {
      const W* w = borrowed_ ? borrowed_->view().weights : g_.weights.data();
      const std::size_t m = borrowed_ ? borrowed_->view().arcs() : g_.weights.size();
      return std::any_of(w, w + m, [](W x) { return x < W(0); });
    }
  }
  split_ref resident_split(const tropic::options& o) {
    const bool split = o.algorithm == tropic::algorithm::automatic ||
                       o.algorithm == tropic::algorithm::delta_stepping;
    if (!split || o.devices.size() < 2 || n() == 0) return {};
    std::unique_lock<std::mutex> lock(*upload_);
    if (!d_split_ || d_split_->devices() != o.devices) {
      if (negative_weight()) return {};
      int count = 0;
      if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
      cudaGetLastError();
      for (std::size_t i = 0; i < o.devices.size(); ++i)
        if (o.devices[i] < 0 || o.devices[i] >= count ||
            std::find(o.devices.begin(), o.devices.begin() + i, o.devices[i]) !=
                o.devices.begin() + i)
          return {};  // sssp(csr)'s distributed_matrix names the bad ordinal
      d_split_.reset();
      d_matrix_.reset();  // one resident form at a time
      if (borrowed_ && borrowed_->still_canonical())
        d_split_ = std::make_unique<tropic::distributed_matrix<W>>(borrowed_->view(), o.devices);
      else
        d_split_ = std::make_unique<tropic::distributed_matrix<W>>(host_csr(), o.devices);
    }
    return {d_split_.get(), std::move(lock)};
  }
#endif

  // The caller's CSR arrays, referenced (their Python objects kept alive), and their view.
  struct borrowed {
    any_array indptr, indices, data;
    tropic::vertex n = 0;
    std::vector<tropic::arc_index> offsets;  // indptr widened, when it is not 64-bit

    tropic::csr_host_view<W> view() const noexcept {
      return {n,
              offsets.empty() ? static_cast<const tropic::arc_index*>(indptr.data())
                              : offsets.data(),
              static_cast<const tropic::vertex*>(indices.data()),
              static_cast<const W*>(data.data())};
    }
    bool still_canonical() const {
      if (!offsets.empty()) {  // the widened copy must still be what indptr says
        bool same = true;
        with_index_type(indptr, "indptr", [&](auto* p) {
          for (std::size_t u = 0; u <= n && same; ++u)
            same = static_cast<std::uint64_t>(p[u]) == offsets[u];
        });
        if (!same) return false;
      }
      return canonical_csr<W>(n, indptr, indices, static_cast<const W*>(data.data()),
                              data.shape(0));
    }
  };

  graph() = default;

  // tropic's own CSR: for a borrowed graph, copied from the caller's arrays on first use.
  const tropic::csr<W>& host_csr() {
    std::lock_guard<std::mutex> lock(*materialize_);
    if (borrowed_ && g_.row_offsets.empty()) {
      const borrowed& b = *borrowed_;
      g_ = csr_from_arrays<W>(b.n, b.indptr, b.indices, static_cast<const W*>(b.data.data()),
                              b.data.shape(0), false);
    }
    return g_;
  }

  tropic::csr<W> g_;
  std::unique_ptr<borrowed> borrowed_;
  std::unique_ptr<std::mutex> materialize_ = std::make_unique<std::mutex>();
#if defined(TROPIC_HAVE_CUDA)
  // Behind a pointer so that the graph stays movable (nanobind moves it into its Python object).
  std::unique_ptr<std::mutex> upload_ = std::make_unique<std::mutex>();
  std::unique_ptr<tropic::device_matrix<W>> d_matrix_;
  int d_device_ = -1;
  std::unique_ptr<tropic::distributed_matrix<W>> d_split_;
#endif
};

template <class W>
void bind_graph(nb::module_& m, const char* type) {
  // nanobind moves factory results into the Python object; without a move it aborts at run time.
  static_assert(std::is_move_constructible_v<graph<W>>, "tropic.Graph must stay movable");
  nb::class_<graph<W>>(m, (std::string("graph_") + type).c_str())
      .def_static("from_csr", &graph<W>::from_csr, "n"_a, "indptr"_a, "indices"_a, "data"_a,
                  "symmetrize"_a = false)
      .def_static("from_coo", &graph<W>::from_coo, "n"_a, "rows"_a, "cols"_a, "data"_a,
                  "symmetrize"_a = false)
      .def_prop_ro("n", &graph<W>::n)
      .def_prop_ro("arcs", &graph<W>::arcs)
      .def_prop_ro("on_device", &graph<W>::on_device)
      .def_prop_ro("borrows", &graph<W>::borrows)
      .def_prop_ro("host_bytes", &graph<W>::host_bytes)
      .def("sssp", &graph<W>::sssp, "source"_a, "algorithm"_a, "delta"_a, "parents"_a, "device"_a,
           "cutoff"_a, "devices"_a)
      .def("sssp_many", &graph<W>::sssp_many, "sources"_a, "algorithm"_a, "delta"_a, "parents"_a,
           "device"_a, "cutoff"_a, "devices"_a)
      .def("arrays", &graph<W>::arrays);
  m.def((std::string("read_graph_") + type).c_str(),
        [](const std::string& path, bool unit_weights) {
          tropic::read_options o;
          o.unit_weights = unit_weights;
          tropic::csr<W> g;
          {
            nb::gil_scoped_release unlocked;
            g = tropic::read_graph<W>(path, o);
          }
          return graph<W>(std::move(g));
        },
        "path"_a, "unit_weights"_a = false);
}

// tropic::error_code -> the Python class of tropic/_errors.py that carries it (each also derives
// from the matching built-in: ValueError, IndexError, MemoryError, ...).
const char* error_class(tropic::error_code c) {
  switch (c) {
    case tropic::error_code::invalid_value:
      return "InvalidValueError";
    case tropic::error_code::invalid_index:
      return "InvalidIndexError";
    case tropic::error_code::parse:
      return "ParseError";
    case tropic::error_code::io:
      return "FileError";
    case tropic::error_code::not_implemented:
      return "NotAvailableError";
    case tropic::error_code::overflow:
      return "DistanceOverflowError";
    case tropic::error_code::out_of_memory:
      return "OutOfMemoryError";
    case tropic::error_code::no_device:
      return "NoDeviceError";
    case tropic::error_code::cuda:
      return "CudaError";
    case tropic::error_code::graphblas:
      return "GraphBLASError";
    case tropic::error_code::negative_cycle:
      return "NegativeCycleError";
  }
  return "TropicError";
}

}  // namespace

NB_MODULE(_tropic, m) {
  m.doc() = "tropic's C++ API; use the tropic package (tropic.sssp, tropic.Graph, tropic.csgraph)";
  bind_graph<std::uint32_t>(m, "uint32");
  bind_graph<std::int32_t>(m, "int32");
  bind_graph<std::uint64_t>(m, "uint64");
  bind_graph<std::int64_t>(m, "int64");
  bind_graph<float>(m, "float32");
  bind_graph<double>(m, "float64");

  m.def("gpu_available", &tropic::gpu_available,
        "True when this build has CUDA and a CUDA device is usable");
  m.def("multi_gpu_devices", [] {
    // The CUDA devices several-GPU solves can use: 0 without CUDA or NCCL in this build.
#if defined(TROPIC_HAVE_CUDA)
    int count = 0;
    if (!tropic::multi_gpu_available() || cudaGetDeviceCount(&count) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    return count;
#else
    return 0;
#endif
  });
  m.def("cuda_build", [] {
#if defined(TROPIC_HAVE_CUDA)
    return true;
#else
    return false;
#endif
  });
  m.def("available_algorithms", [] {
    std::vector<std::string> names;
    for (auto a : tropic::available_algorithms()) names.emplace_back(tropic::algorithm_name(a));
    return names;
  });
  m.def("is_gpu_algorithm", [](const std::string& name) {
    return tropic::is_gpu_algorithm(tropic::parse_algorithm(name));
  });

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const tropic::error& e) {
      nb::object errors = nb::module_::import_("tropic._errors");
      nb::object cls = errors.attr(error_class(e.code()));
      PyErr_SetString(cls.ptr(), e.what());
    }
  });
}
