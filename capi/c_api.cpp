// The C API (tropic/tropic.h): tropic::sssp on a GrB_Matrix, results as GrB_Vectors.
//
// Moving the data. GraphBLAS holds A as 64-bit row pointers, 64-bit column ids and values;
// tropic's csr<W> holds 64-bit offsets, 32-bit column ids and values in std::vectors it owns. So
// one copy is unavoidable without a non-owning csr view (the column ids change width anyway):
// when A is already CSR by row (sparse, not hypersparse, bitmap or full), GxB_Matrix_unpack_CSR
// lends us its arrays in O(1), we copy them into a csr<W> (dropping self-loops, sorting rows
// that GraphBLAS left jumbled) and GxB_Matrix_pack_CSR hands them back, exactly as they were
// (same iso and jumbled flags), before the solve starts; a guard packs them back on every exit
// path. Any other storage (by column, hypersparse, bitmap, full) is never converted in place,
// since the caller could see that through GxB_Matrix_Option_get: we unpack a GrB_Matrix_dup
// converted to sparse-by-row instead, and A is not touched at all.
//
// Every exception stops at the boundary: tropic::error codes map to GrB_Info, std::bad_alloc to
// GrB_OUT_OF_MEMORY, anything else to GrB_PANIC.
#include "tropic/tropic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/detail/graphblas_session.hpp"
#include "tropic/detail/openmp.hpp"
#include "tropic/error.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"

namespace tropic::detail {

// The copy of A's lent arrays (graphblas_session.hpp): self-loops dropped (as build_csr does),
// rows sorted by column. GraphBLAS never holds two entries in one position, so there are no
// parallel arcs to merge. Two passes over the rows, each parallel above a million entries: the
// arcs each row keeps, then (after a prefix sum) each row's arcs into place, a jumbled row sorted
// there. The one-thread copy took 1.25 s of a 2.9 s C-API call on kron-22 (128M arcs;
// bench/results/h100-run4/summary.md).
template <class W>
csr<W> csr_of_graphblas_arrays(vertex n, const GrB_Index* ap, const GrB_Index* aj, const W* ax,
                               bool iso, bool jumbled) {
  const std::int64_t rows = n;
  const bool par = ap[n] > parallel_threshold;
  csr<W> g;
  g.n = n;
  g.row_offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  arc_index* offsets = g.row_offsets.data();

  TROPIC_OMP(parallel for schedule(static) if (par))
  for (std::int64_t u = 0; u < rows; ++u) {
    arc_index kept = 0;
    for (GrB_Index e = ap[u]; e < ap[u + 1]; ++e) kept += aj[e] != GrB_Index(u) ? 1 : 0;
    offsets[u + 1] = kept;
  }
  for (std::int64_t u = 0; u < rows; ++u) offsets[u + 1] += offsets[u];
  g.columns.resize(offsets[n]);
  g.weights.resize(offsets[n]);
  vertex* columns = g.columns.data();
  W* weights = g.weights.data();

  TROPIC_OMP(parallel if (par)) {
    std::vector<std::pair<vertex, W>> row;  // a jumbled row, sorted by column
    TROPIC_OMP(for schedule(dynamic, 1024))
    for (std::int64_t u = 0; u < rows; ++u) {
      arc_index k = offsets[u];
      for (GrB_Index e = ap[u]; e < ap[u + 1]; ++e) {
        if (aj[e] == GrB_Index(u)) continue;
        columns[k] = static_cast<vertex>(aj[e]);
        weights[k] = iso ? ax[0] : ax[e];
        ++k;
      }
      if (jumbled && !std::is_sorted(columns + offsets[u], columns + k)) {
        row.clear();
        for (arc_index q = offsets[u]; q < k; ++q) row.emplace_back(columns[q], weights[q]);
        std::sort(row.begin(), row.end());
        for (std::size_t q = 0; q < row.size(); ++q) {
          columns[offsets[u] + q] = row[q].first;
          weights[offsets[u] + q] = row[q].second;
        }
      }
    }
  }
  return g;
}

#define TROPIC_INSTANTIATE(W)                                                              \
  template csr<W> csr_of_graphblas_arrays<W>(vertex, const GrB_Index*, const GrB_Index*, \
                                             const W*, bool, bool);
TROPIC_FOR_EACH_WEIGHT(TROPIC_INSTANTIATE)
#undef TROPIC_INSTANTIATE

}  // namespace tropic::detail

namespace {

using tropic::detail::grb_handle;

// A failed GraphBLAS call inside the API: its own GrB_Info goes back to the caller.
struct grb_failure {
  GrB_Info info;
  std::string message;
};

void grb(GrB_Info info, const char* what) {
  if (info == GrB_SUCCESS) return;
  throw grb_failure{info, std::string(what) + " failed (GrB_Info " +
                              std::to_string(static_cast<int>(info)) + ")" +
                              (info == GrB_OUT_OF_MEMORY ? ": out of memory" : "")};
}

void write_msg(char* msg, const char* text) {
  if (msg != nullptr) std::snprintf(msg, TROPIC_MSG_LEN, "%s", text);
}

int info_of(tropic::error_code code) {
  using tropic::error_code;
  switch (code) {
    case error_code::invalid_value:
      return GrB_INVALID_VALUE;
    case error_code::invalid_index:
      return GrB_INVALID_INDEX;
    case error_code::parse:
    case error_code::io:
      return TROPIC_IO_ERROR;
    case error_code::not_implemented:
    case error_code::no_device:
      return GrB_NOT_IMPLEMENTED;
    case error_code::overflow:
      return GrB_INVALID_VALUE;  // the input needs a wider weight type
    case error_code::out_of_memory:
      return GrB_OUT_OF_MEMORY;
    case error_code::cuda:
    case error_code::graphblas:
      return GrB_PANIC;
    case error_code::negative_cycle:
      return GrB_NO_VALUE;  // what LAGraph's Bellman-Ford variants return for one
  }
  return GrB_PANIC;
}

// Runs `body`, turning every exception into a GrB_Info and a message.
template <class Body>
int guarded(char* msg, Body&& body) noexcept {
  write_msg(msg, "");
  try {
    body();
    return GrB_SUCCESS;
  } catch (const grb_failure& f) {
    write_msg(msg, f.message.c_str());
    return f.info;
  } catch (const tropic::error& e) {
    write_msg(msg, e.what());
    return info_of(e.code());
  } catch (const std::bad_alloc&) {
    write_msg(msg, "out of memory");
    return GrB_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    write_msg(msg, e.what());
    return GrB_PANIC;
  } catch (...) {
    write_msg(msg, "unknown exception");
    return GrB_PANIC;
  }
}

// Lends A's CSR arrays and gives them back on every exit path.
class borrowed_csr {
 public:
  explicit borrowed_csr(GrB_Matrix a) : a_(a) {
    grb(GxB_Matrix_unpack_CSR(a_, &ap_, &aj_, &ax_, &ap_size_, &aj_size_, &ax_size_, &iso_,
                              &jumbled_, nullptr),
        "GxB_Matrix_unpack_CSR");
    held_ = true;
  }
  borrowed_csr(const borrowed_csr&) = delete;
  borrowed_csr& operator=(const borrowed_csr&) = delete;
  ~borrowed_csr() {
    // Pack only rearranges pointers; on the error path there is nothing better to do if it fails.
    if (held_) give_back();
  }
  GrB_Info give_back() noexcept {
    held_ = false;
    return GxB_Matrix_pack_CSR(a_, &ap_, &aj_, &ax_, ap_size_, aj_size_, ax_size_, iso_,
                               jumbled_, nullptr);
  }

  const GrB_Index* ap() const { return ap_; }
  const GrB_Index* aj() const { return aj_; }
  const void* ax() const { return ax_; }
  bool iso() const { return iso_; }
  bool jumbled() const { return jumbled_; }

 private:
  GrB_Matrix a_;
  GrB_Index* ap_ = nullptr;
  GrB_Index* aj_ = nullptr;
  void* ax_ = nullptr;
  GrB_Index ap_size_ = 0, aj_size_ = 0, ax_size_ = 0;
  bool iso_ = false, jumbled_ = false, held_ = false;
};

int sparsity_of(GrB_Matrix a, GxB_Option_Field field) {
  int32_t value = 0;
  grb(GxB_Matrix_Option_get_INT32(a, field, &value), "GxB_Matrix_Option_get");
  return value;
}

double since_ms(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// Where csr_of's time went (tropic_stats' unpack, copy and pack fields).
struct conversion_times {
  double unpack_ms = 0, copy_ms = 0, pack_ms = 0;
};

// The lent arrays of `a` as a csr<W>, then handed back; `times` gets the three steps.
template <class W>
tropic::csr<W> copy_borrowed(GrB_Matrix a, tropic::vertex n,
                             std::chrono::steady_clock::time_point start,
                             conversion_times& times) {
  borrowed_csr b(a);
  times.unpack_ms = since_ms(start);
  start = std::chrono::steady_clock::now();
  tropic::csr<W> g = tropic::detail::csr_of_graphblas_arrays<W>(
      n, b.ap(), b.aj(), static_cast<const W*>(b.ax()), b.iso(), b.jumbled());
  times.copy_ms = since_ms(start);
  start = std::chrono::steady_clock::now();
  grb(b.give_back(), "GxB_Matrix_pack_CSR");
  times.pack_ms = since_ms(start);
  return g;
}

// A's graph as a csr<W>; A is unchanged when this returns or throws.
template <class W>
tropic::csr<W> csr_of(GrB_Matrix a, tropic::vertex n, conversion_times& times) {
  const auto start = std::chrono::steady_clock::now();
  // No GrB_Matrix_wait: it would also sort a jumbled A, which the caller could see in the order
  // of GrB_Matrix_extractTuples. Unpack finishes only the pending work it must.
  if (sparsity_of(a, GxB_FORMAT) == GxB_BY_ROW &&
      sparsity_of(a, GxB_SPARSITY_STATUS) == GxB_SPARSE)
    return copy_borrowed<W>(a, n, start, times);
  // The dup and its conversion count as unpacking: they are what it takes to lend CSR arrays.
  grb_handle<GrB_Matrix> copy;
  grb(GrB_Matrix_dup(copy.out(), a), "GrB_Matrix_dup");
  grb(GxB_Matrix_Option_set_INT32(copy.get(), GxB_FORMAT, GxB_BY_ROW), "GxB_Matrix_Option_set");
  grb(GxB_Matrix_Option_set_INT32(copy.get(), GxB_SPARSITY_CONTROL, GxB_SPARSE),
      "GxB_Matrix_Option_set");
  return copy_borrowed<W>(copy.get(), n, start, times);
}

// A NaN weight compares false with everything: dijkstra would treat the arc as absent and
// delta-stepping would derive a NaN delta, so every path must refuse it up front, as the file
// readers do. +-inf likewise: an arc of weight +inf is no arc, and -inf has no shortest path.
template <class W>
void check_finite_weights(const tropic::csr<W>& g) {
  for (tropic::vertex u = 0; u < g.n; ++u) {
    for (tropic::arc_index k = g.row_offsets[u]; k < g.row_offsets[u + 1]; ++k) {
      const W w = g.weights[k];
      const std::string arc =
          "A(" + std::to_string(u) + ", " + std::to_string(g.columns[k]) + ") = ";
      if constexpr (std::is_floating_point_v<W>) {
        if (std::isfinite(w)) continue;
        char value[32];
        std::snprintf(value, sizeof value, "%g", static_cast<double>(w));
        throw grb_failure{GrB_INVALID_VALUE, arc + value +
                                                 ": weights must be finite (an absent arc is an "
                                                 "absent entry, not an infinite weight)"};
      } else {
        // An integer type's largest value is tropic's infinity for it: as a weight the arc
        // would vanish, or surface as a misleading distance overflow.
        if (w != std::numeric_limits<W>::max()) continue;
        throw grb_failure{GrB_INVALID_VALUE,
                          arc + std::to_string(w) + ": the type's largest value is reserved for "
                                                    "infinity (no arc); use a wider type"};
      }
    }
  }
}

// A new dense vector of `type` holding `values`. The array is written in place through
// unpack/pack of a full vector, so it is always allocated by GraphBLAS's own allocator (whatever
// the application gave GxB_init).
template <class T>
GrB_Vector dense_vector(GrB_Type type, const std::vector<T>& values) {
  const GrB_Index n = values.size();
  grb_handle<GrB_Vector> v;
  grb(GrB_Vector_new(v.out(), type, n), "GrB_Vector_new");
  // v = 0 (full, iso), then unpacked non-iso: an n-element array GraphBLAS allocated
  grb(GrB_Vector_assign_INT32(v.get(), nullptr, nullptr, 0, GrB_ALL, n, nullptr), "GrB_assign");
  void* x = nullptr;
  GrB_Index size = 0;
  grb(GxB_Vector_unpack_Full(v.get(), &x, &size, nullptr, nullptr), "GxB_Vector_unpack_Full");
  std::memcpy(x, values.data(), n * sizeof(T));
  grb(GxB_Vector_pack_Full(v.get(), &x, size, false, nullptr), "GxB_Vector_pack_Full");
  return v.release();
}


// Calls f(W{}) for the tropic weight type of a GrB_Type; false for any other type.
template <class F>
bool with_weight_type(GrB_Type type, F&& f) {
  if (type == GrB_UINT32) return f(std::uint32_t{}), true;
  if (type == GrB_INT32) return f(std::int32_t{}), true;
  if (type == GrB_UINT64) return f(std::uint64_t{}), true;
  if (type == GrB_INT64) return f(std::int64_t{}), true;
  if (type == GrB_FP32) return f(float{}), true;
  if (type == GrB_FP64) return f(double{}), true;
  return false;
}

tropic::algorithm algorithm_of(int a) {
  switch (a) {
    case TROPIC_AUTO: return tropic::algorithm::automatic;
    case TROPIC_DIJKSTRA: return tropic::algorithm::dijkstra;
    case TROPIC_DELTA_STEPPING: return tropic::algorithm::delta_stepping;
    case TROPIC_BELLMAN_FORD: return tropic::algorithm::bellman_ford;
    case TROPIC_GRAPHBLAS_CPU: return tropic::algorithm::graphblas_cpu;
    case TROPIC_ADDS: return tropic::algorithm::adds;
    case TROPIC_NEAR_FAR: return tropic::algorithm::near_far;
    case TROPIC_WORKFRONT: return tropic::algorithm::workfront;
    case TROPIC_RDBS: return tropic::algorithm::rdbs;
    case TROPIC_DA2CF: return tropic::algorithm::da2cf;
  }
  throw tropic::error(tropic::error_code::invalid_value,
                      "tropic_options.algorithm = " + std::to_string(a) +
                          " is not a tropic_algorithm value");
}

// delta: NULL, empty or 0 -> automatic (0); else the value, which must be >= 0 (negative or NaN:
// GrB_INVALID_VALUE). Read as a double whatever the scalar's type, never cast to A's: 2.5 on an
// int32 matrix is 2.5 (buckets [2.5k, 2.5(k+1)) of integers), where LAGraph would take 2.
double delta_of(GrB_Scalar delta, const tropic_options* opts) {
  double d = 0;
  if (opts != nullptr && opts->delta != 0) {
    d = opts->delta;
  } else if (delta != nullptr) {
    GrB_Index present = 0;
    grb(GrB_Scalar_nvals(&present, delta), "GrB_Scalar_nvals (delta)");
    if (present) grb(GrB_Scalar_extractElement_FP64(&d, delta), "GrB_Scalar_extractElement");
  }
  if (!(d >= 0))
    throw tropic::error(tropic::error_code::invalid_value,
                        "delta must be positive (or empty for automatic), got " +
                            std::to_string(d));
  return d;
}

// tropic_options as first shipped with struct_size (it ends at cutoff).
constexpr std::size_t options_first_size = offsetof(tropic_options, cutoff) + sizeof(double);

// opts->cutoff when the caller's struct_size covers it, else none; struct_size 0 is a struct
// zero-initialised without it (tropic.h): the first three fields only.
double options_cutoff(const tropic_options* opts) {
  if (opts == nullptr || opts->struct_size == 0) return std::numeric_limits<double>::infinity();
  if (opts->struct_size < options_first_size)
    throw grb_failure{GrB_INVALID_VALUE,
                      "opts->struct_size is " + std::to_string(opts->struct_size) +
                          ": set it to sizeof(tropic_options) (" +
                          std::to_string(sizeof(tropic_options)) + "), or 0 for the defaults"};
  return opts->cutoff;
}

// The `cutoff` scalar when present, else opts' (options_cutoff); negative or NaN is invalid.
double cutoff_of(GrB_Scalar cutoff, const tropic_options* opts) {
  double c = options_cutoff(opts);
  if (cutoff != nullptr) {
    GrB_Index present = 0;
    grb(GrB_Scalar_nvals(&present, cutoff), "GrB_Scalar_nvals (cutoff)");
    if (present) grb(GrB_Scalar_extractElement_FP64(&c, cutoff), "GrB_Scalar_extractElement");
  }
  if (!(c >= 0))
    throw grb_failure{GrB_INVALID_VALUE,
                      "cutoff must be >= 0 (or empty for none), got " + std::to_string(c)};
  return c;
}

// tropic_stats as first shipped with struct_size (it ends at output_milliseconds): every caller
// that sets struct_size knows at least these fields, so a smaller value is a mistake.
constexpr std::size_t stats_first_size =
    offsetof(tropic_stats, output_milliseconds) + sizeof(double);

// Hands `all` to the caller's stats, only as far as the caller's struct_size reaches: a program
// built against an older, shorter tropic_stats gets its fields and nothing is written past them.
void write_stats(tropic_stats* stats, tropic_stats all) {
  all.struct_size = stats->struct_size;
  std::memcpy(stats, &all, std::min(stats->struct_size, sizeof all));
}

}  // namespace

extern "C" int tropic_sssp_ext(GrB_Vector* path_length, GrB_Vector* parents, tropic_stats* stats,
                               GrB_Matrix A, GrB_Index source, GrB_Scalar delta,
                               const tropic_options* opts, char* msg) {
  if (path_length != nullptr) *path_length = nullptr;
  if (parents != nullptr) *parents = nullptr;
  return guarded(msg, [&] {
    if (path_length == nullptr) throw grb_failure{GrB_NULL_POINTER, "path_length is NULL"};
    if (A == nullptr) throw grb_failure{GrB_NULL_POINTER, "the matrix A is NULL"};
    if (stats != nullptr && stats->struct_size < stats_first_size)
      throw grb_failure{GrB_INVALID_VALUE,
                        "stats->struct_size is " + std::to_string(stats->struct_size) +
                            ": set it to sizeof(tropic_stats) (" +
                            std::to_string(sizeof(tropic_stats)) + ")"};
    tropic::detail::ensure_graphblas();
    GrB_Type type = nullptr;
    grb(GxB_Matrix_type(&type, A), "GxB_Matrix_type");
    GrB_Index nrows = 0, ncols = 0;
    grb(GrB_Matrix_nrows(&nrows, A), "GrB_Matrix_nrows");
    grb(GrB_Matrix_ncols(&ncols, A), "GrB_Matrix_ncols");
    if (nrows != ncols)
      throw grb_failure{GrB_DIMENSION_MISMATCH, "A must be square, it is " +
                                                    std::to_string(nrows) + " x " +
                                                    std::to_string(ncols)};
    if (source >= nrows)
      throw grb_failure{GrB_INVALID_INDEX, "source " + std::to_string(source) +
                                               " is out of range: A has " +
                                               std::to_string(nrows) + " rows"};
    if (nrows > std::numeric_limits<tropic::vertex>::max())
      throw grb_failure{GrB_NOT_IMPLEMENTED, "tropic handles at most 2^32 - 1 vertices"};
    tropic::options o;
    o.algorithm = algorithm_of(opts ? static_cast<int>(opts->algorithm) : 0);
    o.device = opts ? opts->device : 0;
    o.delta = delta_of(delta, opts);
    o.cutoff = cutoff_of(nullptr, opts);
    o.parents = parents != nullptr;

    const bool known = with_weight_type(type, [&](auto w) {
      using W = decltype(w);
      conversion_times conversion;
      const tropic::csr<W> g = csr_of<W>(A, static_cast<tropic::vertex>(nrows), conversion);
      check_finite_weights(g);

      auto start = std::chrono::steady_clock::now();
      const tropic::result<W> r = tropic::sssp(g, static_cast<tropic::vertex>(source), o);
      const double sssp_ms = since_ms(start);

      start = std::chrono::steady_clock::now();
      grb_handle<GrB_Vector> d(dense_vector(type, r.distances));
      grb_handle<GrB_Vector> p;
      if (parents != nullptr) p = grb_handle<GrB_Vector>(dense_vector(GrB_INT64, r.parents));
      const double output_ms = since_ms(start);
      if (stats != nullptr) {
        tropic_stats all = {};
        std::snprintf(all.algorithm, sizeof all.algorithm, "%s", r.stats.algorithm.c_str());
        all.delta = r.stats.delta;
        all.buckets = r.stats.buckets;
        all.iterations = r.stats.iterations;
        all.vertices_relaxed = r.stats.vertices_relaxed;
        all.arcs_relaxed = r.stats.arcs_relaxed;
        all.milliseconds = r.stats.milliseconds;
        all.setup_milliseconds = r.stats.setup_milliseconds;
        all.interop_milliseconds =
            conversion.unpack_ms + conversion.copy_ms + conversion.pack_ms + output_ms;
        all.unpack_milliseconds = conversion.unpack_ms;
        all.copy_milliseconds = conversion.copy_ms;
        all.pack_milliseconds = conversion.pack_ms;
        all.sssp_milliseconds = sssp_ms;
        all.output_milliseconds = output_ms;
        write_stats(stats, all);
      }
      // Nothing can fail past this point: hand both vectors over together.
      *path_length = d.release();
      if (parents != nullptr) *parents = p.release();
    });
    if (!known) {
      const char* name = "user-defined";
      if (type == GrB_BOOL) name = "GrB_BOOL";
      if (type == GrB_INT8) name = "GrB_INT8";
      if (type == GrB_UINT8) name = "GrB_UINT8";
      if (type == GrB_INT16) name = "GrB_INT16";
      if (type == GrB_UINT16) name = "GrB_UINT16";
      throw grb_failure{GrB_NOT_IMPLEMENTED,
                        std::string("A's type (") + name +
                            ") is not supported: use GrB_INT32, GrB_INT64, GrB_UINT32, "
                            "GrB_UINT64, GrB_FP32 or GrB_FP64"};
    }
  });
}

namespace {

// A new k x n matrix of W from CSR arrays (GraphBLAS copies them).
template <class W>
GrB_Info import_rows(GrB_Matrix* a, GrB_Index rows, GrB_Index cols, const GrB_Index* ap,
                     const GrB_Index* aj, const W* ax, GrB_Index m) {
#define TROPIC_IMPORT(T, SUFFIX)                                                               \
  if constexpr (std::is_same_v<W, T>)                                                          \
    return GrB_Matrix_import_##SUFFIX(a, GrB_##SUFFIX, rows, cols, ap, aj, ax, rows + 1, m, m, \
                                      GrB_CSR_FORMAT);
  TROPIC_IMPORT(std::uint32_t, UINT32)
  TROPIC_IMPORT(std::int32_t, INT32)
  TROPIC_IMPORT(std::uint64_t, UINT64)
  TROPIC_IMPORT(std::int64_t, INT64)
  TROPIC_IMPORT(float, FP32)
  TROPIC_IMPORT(double, FP64)
#undef TROPIC_IMPORT
  return GrB_NOT_IMPLEMENTED;
}

// The entries of `sources` as vertex ids: every entry present, integral, in [0, n).
std::vector<tropic::vertex> sources_of(GrB_Vector sources, GrB_Index n) {
  GrB_Index k = 0, present = 0;
  grb(GrB_Vector_size(&k, sources), "GrB_Vector_size (sources)");
  grb(GrB_Vector_nvals(&present, sources), "GrB_Vector_nvals (sources)");
  if (present != k)
    throw grb_failure{GrB_INVALID_VALUE, "sources has " + std::to_string(k - present) +
                                             " absent entries of " + std::to_string(k) +
                                             ": row i of D is for entry i, so every entry must "
                                             "be present"};
  std::vector<GrB_Index> index(k);
  std::vector<double> value(k);
  GrB_Index count = k;
  grb(GrB_Vector_extractTuples_FP64(index.data(), value.data(), &count, sources),
      "GrB_Vector_extractTuples (sources)");
  std::vector<tropic::vertex> out(k);
  for (GrB_Index e = 0; e < count; ++e) {
    const double v = value[e];
    if (!(v >= 0) || v != std::floor(v))
      throw grb_failure{GrB_INVALID_VALUE, "sources(" + std::to_string(index[e]) +
                                               ") = " + std::to_string(v) +
                                               " is not a vertex id (an integer >= 0)"};
    if (v >= double(n))
      throw grb_failure{GrB_INVALID_INDEX, "sources(" + std::to_string(index[e]) + ") = source " +
                                               std::to_string(static_cast<GrB_Index>(v)) +
                                               " is out of range: A has " + std::to_string(n) +
                                               " rows"};
    out[index[e]] = static_cast<tropic::vertex>(v);
  }
  return out;
}

}  // namespace

extern "C" int tropic_sssp_multi_ext(GrB_Matrix* D, tropic_stats* stats, GrB_Matrix A,
                                     GrB_Vector sources, GrB_Scalar delta, GrB_Scalar cutoff,
                                     const tropic_options* opts, char* msg) {
  if (D != nullptr) *D = nullptr;
  return guarded(msg, [&] {
    if (D == nullptr) throw grb_failure{GrB_NULL_POINTER, "D is NULL"};
    if (A == nullptr) throw grb_failure{GrB_NULL_POINTER, "the matrix A is NULL"};
    if (sources == nullptr) throw grb_failure{GrB_NULL_POINTER, "sources is NULL"};
    if (stats != nullptr && stats->struct_size < stats_first_size)
      throw grb_failure{GrB_INVALID_VALUE, "stats->struct_size is " +
                                               std::to_string(stats->struct_size) +
                                               ": set it to sizeof(tropic_stats) (" +
                                               std::to_string(sizeof(tropic_stats)) + ")"};
    tropic::detail::ensure_graphblas();
    GrB_Type type = nullptr;
    grb(GxB_Matrix_type(&type, A), "GxB_Matrix_type");
    GrB_Index nrows = 0, ncols = 0;
    grb(GrB_Matrix_nrows(&nrows, A), "GrB_Matrix_nrows");
    grb(GrB_Matrix_ncols(&ncols, A), "GrB_Matrix_ncols");
    if (nrows != ncols)
      throw grb_failure{GrB_DIMENSION_MISMATCH, "A must be square, it is " + std::to_string(nrows) +
                                                    " x " + std::to_string(ncols)};
    if (nrows > std::numeric_limits<tropic::vertex>::max())
      throw grb_failure{GrB_NOT_IMPLEMENTED, "tropic handles at most 2^32 - 1 vertices"};
    const std::vector<tropic::vertex> list = sources_of(sources, nrows);
    tropic::options o;
    o.algorithm = algorithm_of(opts ? static_cast<int>(opts->algorithm) : 0);
    o.device = opts ? opts->device : 0;
    o.delta = delta_of(delta, opts);
    o.cutoff = cutoff_of(cutoff, opts);

    const bool known = with_weight_type(type, [&](auto w) {
      using W = decltype(w);
      conversion_times conversion;
      const tropic::csr<W> g = csr_of<W>(A, static_cast<tropic::vertex>(nrows), conversion);
      check_finite_weights(g);
      auto start = std::chrono::steady_clock::now();
      const tropic::multi_result<W> r = tropic::sssp(g, list, o);
      const double sssp_ms = since_ms(start);

      // D: row i = the reached entries of distance row i (sparse CSR, imported)
      start = std::chrono::steady_clock::now();
      const std::size_t k = list.size(), n = g.n;
      std::vector<GrB_Index> ap(k + 1, 0), aj;
      std::vector<W> ax;
      for (std::size_t i = 0; i < k; ++i) {
        const W* row = r.row(i);
        for (std::size_t v = 0; v < n; ++v)
          if (row[v] != tropic::infinity<W>()) aj.push_back(v), ax.push_back(row[v]);
        ap[i + 1] = aj.size();
      }
      const GrB_Index no_column = 0;
      const W no_weight = 0;
      grb_handle<GrB_Matrix> d;
      grb(import_rows<W>(d.out(), k, n, ap.data(), aj.empty() ? &no_column : aj.data(),
                         ax.empty() ? &no_weight : ax.data(), aj.size()),
          "GrB_Matrix_import (D)");
      const double output_ms = since_ms(start);
      if (stats != nullptr) {
        tropic_stats all = {};
        std::snprintf(all.algorithm, sizeof all.algorithm, "%s", r.stats.algorithm.c_str());
        all.delta = r.stats.delta;
        all.buckets = r.stats.buckets;
        all.iterations = r.stats.iterations;
        all.vertices_relaxed = r.stats.vertices_relaxed;
        all.arcs_relaxed = r.stats.arcs_relaxed;
        all.milliseconds = r.stats.milliseconds;
        all.setup_milliseconds = r.stats.setup_milliseconds;
        all.interop_milliseconds =
            conversion.unpack_ms + conversion.copy_ms + conversion.pack_ms + output_ms;
        all.unpack_milliseconds = conversion.unpack_ms;
        all.copy_milliseconds = conversion.copy_ms;
        all.pack_milliseconds = conversion.pack_ms;
        all.sssp_milliseconds = sssp_ms;
        all.output_milliseconds = output_ms;
        write_stats(stats, all);
      }
      *D = d.release();
    });
    if (!known)
      throw grb_failure{GrB_NOT_IMPLEMENTED,
                        "A's type is not supported: use GrB_INT32, GrB_INT64, GrB_UINT32, "
                        "GrB_UINT64, GrB_FP32 or GrB_FP64"};
  });
}

extern "C" int tropic_sssp_multi(GrB_Matrix* D, GrB_Matrix A, GrB_Vector sources, GrB_Scalar delta,
                                 GrB_Scalar cutoff, char* msg) {
  return tropic_sssp_multi_ext(D, nullptr, A, sources, delta, cutoff, nullptr, msg);
}

extern "C" int tropic_sssp(GrB_Vector* path_length, GrB_Matrix A, GrB_Index source,
                           GrB_Scalar delta, char* msg) {
  return tropic_sssp_ext(path_length, nullptr, nullptr, A, source, delta, nullptr, msg);
}

extern "C" int tropic_read_matrix(GrB_Matrix* A, const char* path, GrB_Type type, char* msg) {
  if (A != nullptr) *A = nullptr;
  return guarded(msg, [&] {
    if (A == nullptr || path == nullptr || type == nullptr)
      throw grb_failure{GrB_NULL_POINTER, "A, path and type must not be NULL"};
    tropic::detail::ensure_graphblas();
    const bool known = with_weight_type(type, [&](auto w) {
      using W = decltype(w);
      tropic::read_options ro;
      const tropic::csr<W> g = tropic::read_graph<W>(path, ro);
      const GrB_Index n = g.n;
      const GrB_Index m = g.arcs();
      std::vector<GrB_Index> columns(g.columns.begin(), g.columns.end());
      const GrB_Index no_column = 0;
      const W no_weight = 0;
      grb_handle<GrB_Matrix> out;
      grb(tropic::detail::import_matrix<W>(out.out(), n, g.row_offsets.data(),
                                           m ? columns.data() : &no_column,
                                           m ? g.weights.data() : &no_weight, m),
          "GrB_Matrix_import");
      *A = out.release();
    });
    if (!known)
      throw grb_failure{GrB_NOT_IMPLEMENTED,
                        "tropic_read_matrix: type must be GrB_INT32, GrB_INT64, GrB_UINT32, "
                        "GrB_UINT64, GrB_FP32 or GrB_FP64"};
  });
}
