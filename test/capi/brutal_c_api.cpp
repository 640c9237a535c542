// "Brutal" allocation-failure test of the C API, after SuiteSparse's and LAGraph's: GraphBLAS is
// started with GxB_init and an allocator that fails every allocation from the Nth on; the call
// is repeated for N = 0, 1, 2, ... until it succeeds. Every failing call must return an error
// (never success with a wrong answer), leave no GraphBLAS allocation behind, and leave A exactly
// as it was. GxB_init works only as a process's first GraphBLAS call, so this is its own program.
//
// Exit status 0 when everything holds; the first problems are printed.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tropic/csr.hpp"
#include "tropic/generate.hpp"
#include "tropic/sssp.hpp"
#include "tropic/tropic.h"

namespace {

std::atomic<long> live{0};        // GraphBLAS blocks currently allocated
std::atomic<long> allowance{-1};  // allocations left before failing; -1: never fail

bool may_allocate() {
  long left = allowance.load();
  while (left >= 0) {
    if (left == 0) return false;  // stays 0: every later allocation fails too
    if (allowance.compare_exchange_weak(left, left - 1)) return true;
  }
  return true;
}

void* brutal_malloc(std::size_t size) {
  if (!may_allocate()) return nullptr;
  void* p = std::malloc(size);
  if (p) ++live;
  return p;
}
void* brutal_calloc(std::size_t count, std::size_t size) {
  if (!may_allocate()) return nullptr;
  void* p = std::calloc(count, size);
  if (p) ++live;
  return p;
}
void* brutal_realloc(void* old, std::size_t size) {
  if (!may_allocate()) return nullptr;
  void* p = std::realloc(old, size);
  if (p && !old) ++live;
  return p;
}
void brutal_free(void* p) {
  if (p) --live;
  std::free(p);
}

int failures = 0;
void fail(const std::string& what) {
  if (++failures <= 20) std::fprintf(stderr, "FAIL: %s\n", what.c_str());
}

// A's observable content: tuples, type, format, sparsity (read with the allocator unarmed).
std::string fingerprint(GrB_Matrix a) {
  GrB_Index n = 0, k = 0;
  GrB_Matrix_nrows(&n, a);
  GrB_Matrix_nvals(&k, a);
  std::vector<GrB_Index> i(k), j(k);
  std::vector<double> x(k);
  GrB_Index got = k;
  if (GrB_Matrix_extractTuples_FP64(i.data(), j.data(), x.data(), &got, a) != GrB_SUCCESS)
    return "unreadable";
  int32_t format = -1, sparsity = -1;
  GxB_Matrix_Option_get_INT32(a, GxB_FORMAT, &format);
  GxB_Matrix_Option_get_INT32(a, GxB_SPARSITY_STATUS, &sparsity);
  std::string s = std::to_string(n) + ":" + std::to_string(k) + ":" + std::to_string(format) +
                  ":" + std::to_string(sparsity) + ":";
  s.append(reinterpret_cast<const char*>(i.data()), k * sizeof(GrB_Index));
  s.append(reinterpret_cast<const char*>(j.data()), k * sizeof(GrB_Index));
  s.append(reinterpret_cast<const char*>(x.data()), k * sizeof(double));
  return s;
}

template <class W>
GrB_Matrix matrix_of(const tropic::csr<W>& g, GrB_Type type) {
  std::vector<GrB_Index> i, j;
  std::vector<double> x;
  for (tropic::vertex u = 0; u < g.n; ++u)
    for (tropic::arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      i.push_back(u);
      j.push_back(g.columns[e]);
      x.push_back(static_cast<double>(g.weights[e]));
    }
  GrB_Matrix a = nullptr;
  GrB_Matrix_new(&a, type, g.n, g.n);
  GrB_Matrix_build_FP64(a, i.data(), j.data(), x.data(), i.size(), GrB_MIN_FP64);
  GrB_Matrix_wait(a, GrB_MATERIALIZE);
  return a;
}

// Repeats one call with the Nth allocation failing until it succeeds; checks every attempt.
template <class W>
void brutal(const char* name, const tropic::csr<W>& g, GrB_Matrix a, tropic::vertex source,
            tropic_algorithm algorithm, bool with_parents, GrB_Scalar delta) {
  const std::vector<W> want = tropic::dijkstra(g, source, false).distances;
  const std::string before = fingerprint(a);
  tropic_options opts = {};
  opts.algorithm = algorithm;
  for (long n = 0;; ++n) {
    GrB_Vector d = nullptr, p = nullptr;
    char msg[TROPIC_MSG_LEN];
    tropic_stats st = {};
    st.struct_size = sizeof st;
    const long live_before = live.load();
    allowance = n;
    const int info = tropic_sssp_ext(&d, with_parents ? &p : nullptr, &st, a, source, delta,
                                     &opts, msg);
    allowance = -1;
    const std::string where = std::string(name) + ", allocation " + std::to_string(n);
    if (fingerprint(a) != before) fail(where + ": A changed (info " + std::to_string(info) + ")");
    if (info == GrB_SUCCESS) {
      std::vector<W> got(g.n);
      GrB_Index k = g.n;
      std::vector<double> values(g.n);
      if (GrB_Vector_extractTuples_FP64(nullptr, values.data(), &k, d) != GrB_SUCCESS || k != g.n)
        fail(where + ": result vector unreadable or not dense");
      for (tropic::vertex v = 0; v < g.n && v < k; ++v)
        if (values[v] != static_cast<double>(want[v]))
          fail(where + ": wrong distance at vertex " + std::to_string(v));
      if (with_parents && p == nullptr) fail(where + ": no parents vector");
      GrB_Vector_free(&d);
      GrB_Vector_free(&p);
      if (live.load() != live_before) fail(where + ": success leaks");
      std::printf("%s: succeeded after %ld failing allocations, each one an error, no leak\n",
                  name, n);
      return;
    }
    if (info > 0) fail(where + ": positive info " + std::to_string(info));
    if (d != nullptr || p != nullptr) fail(where + ": output set on failure");
    if (std::memchr(msg, '\0', sizeof msg) == nullptr || msg[0] == '\0')
      fail(where + ": no message");
    if (live.load() != live_before)
      fail(where + ": leaked " + std::to_string(live.load() - live_before) + " blocks (info " +
           std::to_string(info) + ", " + msg + ")");
    if (n > 100000) {
      fail(where + ": never succeeded");
      return;
    }
  }
}

}  // namespace

int main() {
  if (GxB_init(GrB_NONBLOCKING, brutal_malloc, brutal_calloc, brutal_realloc, brutal_free) !=
      GrB_SUCCESS) {
    std::fprintf(stderr, "GxB_init failed\n");
    return 1;
  }
  // GraphBLAS keeps freed blocks in a pool by default: off, so a leak is a live block.
  std::int64_t no_pool[64] = {0};
  GxB_Global_Option_set_INT64_ARRAY(GxB_MEMORY_POOL, no_pool);

  const auto grid = tropic::generate_grid<std::uint32_t>(6, 7, 3, 1, 20);
  const auto kron = tropic::generate_kronecker<double>(6, 4, 5, 1, 50);

  GrB_Matrix a = matrix_of(grid, GrB_UINT32);
  brutal("uint32 grid, graphblas_cpu", grid, a, 5, TROPIC_GRAPHBLAS_CPU, true, nullptr);
  brutal("uint32 grid, automatic", grid, a, 0, TROPIC_AUTO, false, nullptr);
  GrB_Scalar delta = nullptr;
  GrB_Scalar_new(&delta, GrB_FP64);
  GrB_Scalar_setElement_FP64(delta, 7.5);
  brutal("uint32 grid, delta 7.5", grid, a, 1, TROPIC_GRAPHBLAS_CPU, false, delta);
  GrB_Matrix_free(&a);

  a = matrix_of(kron, GrB_FP64);
  brutal("fp64 kronecker, graphblas_cpu", kron, a, 2, TROPIC_GRAPHBLAS_CPU, true, delta);
  // Stored by column: the API works on a converted copy and must never touch A.
  GxB_Matrix_Option_set_INT32(a, GxB_FORMAT, GxB_BY_COL);
  brutal("fp64 kronecker by column", kron, a, 2, TROPIC_GRAPHBLAS_CPU, false, nullptr);
  GrB_Matrix_free(&a);
  GrB_Scalar_free(&delta);

  // tropic_read_matrix on a missing file under allocation failure still reports cleanly.
  GrB_Matrix r = nullptr;
  char msg[TROPIC_MSG_LEN];
  allowance = 0;
  const int info = tropic_read_matrix(&r, "/nonexistent.mtx", GrB_FP64, msg);
  allowance = -1;
  if (info >= 0 || r != nullptr) fail("tropic_read_matrix: missing file not reported");

  GrB_finalize();
  if (failures) std::fprintf(stderr, "%d failures\n", failures);
  return failures ? 1 : 0;
}
