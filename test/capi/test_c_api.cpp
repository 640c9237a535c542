// The C API (tropic/tropic.h) on GrB_Matrix inputs: answers for all six types against the CPU
// Dijkstra, every error code with A intact afterwards, every storage A can have (by column,
// hypersparse, bitmap, full, iso, jumbled), delta variants, and the shared real graphs.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../algorithms/negative_graphs.hpp"
#include "random_graphs.hpp"
#include "tropic/csr.hpp"
#include "tropic/detail/graphblas_session.hpp"
#include "tropic/generate.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"
#include "tropic/tropic.h"

using namespace tropic;

namespace {

template <class W>
struct gb;
#define TROPIC_TEST_GB(W, T)                                                              \
  template <>                                                                             \
  struct gb<W> {                                                                          \
    static GrB_Type type() { return GrB_##T; }                                            \
    static GrB_Info build(GrB_Matrix a, const GrB_Index* i, const GrB_Index* j,           \
                          const W* x, GrB_Index k) {                                      \
      return GrB_Matrix_build_##T(a, i, j, x, k, GrB_MIN_##T);                            \
    }                                                                                     \
    static GrB_Info extract(W* x, GrB_Index* k, GrB_Vector v) {                           \
      return GrB_Vector_extractTuples_##T(nullptr, x, k, v);                              \
    }                                                                                     \
    static GrB_Info set(GrB_Scalar s, W x) { return GrB_Scalar_setElement_##T(s, x); }    \
  };
TROPIC_TEST_GB(std::uint32_t, UINT32)
TROPIC_TEST_GB(std::int32_t, INT32)
TROPIC_TEST_GB(std::uint64_t, UINT64)
TROPIC_TEST_GB(std::int64_t, INT64)
TROPIC_TEST_GB(float, FP32)
TROPIC_TEST_GB(double, FP64)
#undef TROPIC_TEST_GB

struct matrix_guard {
  GrB_Matrix a = nullptr;
  ~matrix_guard() { GrB_Matrix_free(&a); }
};
struct vector_guard {
  GrB_Vector v = nullptr;
  ~vector_guard() { GrB_Vector_free(&v); }
};

// A GrB_Matrix of the arcs of g (parallel arcs: the lightest; self-loops kept, tropic drops them).
template <class W>
GrB_Matrix matrix_of(const csr<W>& g) {
  detail::ensure_graphblas();
  std::vector<GrB_Index> i, j;
  for (vertex u = 0; u < g.n; ++u)
    for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      i.push_back(u);
      j.push_back(g.columns[e]);
    }
  GrB_Matrix a = nullptr;
  REQUIRE(GrB_Matrix_new(&a, gb<W>::type(), g.n, g.n) == GrB_SUCCESS);
  if (!i.empty())
    REQUIRE(gb<W>::build(a, i.data(), j.data(), g.weights.data(), i.size()) == GrB_SUCCESS);
  REQUIRE(GrB_Matrix_wait(a, GrB_MATERIALIZE) == GrB_SUCCESS);
  return a;
}

template <class W>
std::vector<W> values_of(GrB_Vector v) {
  GrB_Index n = 0, k = 0;
  REQUIRE(GrB_Vector_size(&n, v) == GrB_SUCCESS);
  REQUIRE(GrB_Vector_nvals(&k, v) == GrB_SUCCESS);
  REQUIRE(k == n);  // dense
  std::vector<W> x(n);
  REQUIRE(gb<W>::extract(x.data(), &k, v) == GrB_SUCCESS);
  return x;
}

std::vector<std::int64_t> parents_of(GrB_Vector v) {
  GrB_Index n = 0;
  REQUIRE(GrB_Vector_size(&n, v) == GrB_SUCCESS);
  std::vector<std::int64_t> x(n);
  GrB_Index k = n;
  REQUIRE(GrB_Vector_extractTuples_INT64(nullptr, x.data(), &k, v) == GrB_SUCCESS);
  REQUIRE(k == n);
  return x;
}

// Everything a caller can observe about A.
struct snapshot {
  GrB_Type type = nullptr;
  GrB_Index nrows = 0, ncols = 0, nvals = 0;
  std::vector<GrB_Index> i, j;
  std::vector<double> x;
  std::vector<std::int64_t> xi;
  int32_t format = -1, sparsity = -1;
  bool iso = false;

  explicit snapshot(GrB_Matrix a) {
    REQUIRE(GxB_Matrix_type(&type, a) == GrB_SUCCESS);
    REQUIRE(GrB_Matrix_nrows(&nrows, a) == GrB_SUCCESS);
    REQUIRE(GrB_Matrix_ncols(&ncols, a) == GrB_SUCCESS);
    REQUIRE(GrB_Matrix_nvals(&nvals, a) == GrB_SUCCESS);
    REQUIRE(GxB_Matrix_Option_get_INT32(a, GxB_FORMAT, &format) == GrB_SUCCESS);
    REQUIRE(GxB_Matrix_Option_get_INT32(a, GxB_SPARSITY_STATUS, &sparsity) == GrB_SUCCESS);
    REQUIRE(GxB_Matrix_iso(&iso, a) == GrB_SUCCESS);
    i.resize(nvals);
    j.resize(nvals);
    x.resize(nvals);
    xi.resize(nvals);
    GrB_Index k = nvals;
    REQUIRE(GrB_Matrix_extractTuples_FP64(i.data(), j.data(), x.data(), &k, a) == GrB_SUCCESS);
    REQUIRE(k == nvals);
    std::vector<GrB_Index> i2(nvals), j2(nvals);
    REQUIRE(GrB_Matrix_extractTuples_INT64(i2.data(), j2.data(), xi.data(), &k, a) ==
            GrB_SUCCESS);
    REQUIRE((i2 == i && j2 == j));
  }
  std::string describe() const {
    return "type " + std::to_string(type == nullptr) + " " + std::to_string(nrows) + "x" +
           std::to_string(ncols) + " nvals " + std::to_string(nvals) + " format " +
           std::to_string(format) + " sparsity " + std::to_string(sparsity) + " iso " +
           std::to_string(iso);
  }
  bool operator==(const snapshot& o) const {
    return type == o.type && nrows == o.nrows && ncols == o.ncols && nvals == o.nvals &&
           i == o.i && j == o.j && xi == o.xi && format == o.format && sparsity == o.sparsity &&
           iso == o.iso && std::memcmp(x.data(), o.x.data(), x.size() * sizeof(double)) == 0;
  }
};

// Calls the C API, expects `want` and, on failure, an untouched A, NULL outputs and a message.
int call_expect(int want, GrB_Matrix a, GrB_Index source, GrB_Scalar delta,
                const tropic_options* opts, bool with_parents = false) {
  const snapshot before(a);
  GrB_Vector d = reinterpret_cast<GrB_Vector>(0x1), p = reinterpret_cast<GrB_Vector>(0x1);
  char msg[TROPIC_MSG_LEN];
  std::memset(msg, 'x', sizeof msg);
  tropic_stats st = {};
  st.struct_size = sizeof st;
  const int info = tropic_sssp_ext(&d, with_parents ? &p : nullptr, &st, a, source, delta, opts,
                                   msg);
  CHECK(info == want);
  CHECK(std::memchr(msg, '\0', sizeof msg) != nullptr);  // NUL-terminated
  if (info == GrB_SUCCESS) {
    CHECK(msg[0] == '\0');
  } else {
    CHECK(std::strlen(msg) > 0);
    CHECK(d == nullptr);
    if (with_parents) CHECK(p == nullptr);
  }
  INFO("message: " << msg);
  CHECK(snapshot(a) == before);
  if (info == GrB_SUCCESS) {
    GrB_Vector_free(&d);
    if (with_parents) GrB_Vector_free(&p);
  }
  return info;
}

template <class W>
void check_against_dijkstra(const csr<W>& g, GrB_Matrix a, vertex s, GrB_Scalar delta,
                            const tropic_options* opts) {
  const snapshot before(a);
  vector_guard d, p;
  tropic_stats st = {};
  st.struct_size = sizeof st;
  char msg[TROPIC_MSG_LEN];
  const int info = tropic_sssp_ext(&d.v, &p.v, &st, a, s, delta, opts, msg);
  INFO("message: " << msg);
  REQUIRE(info == GrB_SUCCESS);
  const snapshot after(a);
  INFO("before: " << before.describe() << "; after: " << after.describe());
  CHECK(after == before);
  result<W> got;
  got.distances = values_of<W>(d.v);
  got.parents = parents_of(p.v);
  const auto want = reference_sssp(g, s, false).distances;  // Bellman-Ford with negative arcs
  CHECK(verify(g, s, want, got) == "");
  CHECK(std::strlen(st.algorithm) > 0);
  CHECK(st.delta > 0);
  CHECK(st.interop_milliseconds >= 0);
}

template <class W>
void check_type(std::size_t count, std::uint64_t seed) {
  for (const auto& c : testing::test_graph_cases(count, seed)) {
    CAPTURE(c.name());
    const csr<W> g = c.graph<W>();
    if (g.n == 0) continue;
    matrix_guard a;
    a.a = matrix_of(g);
    const vertex s = c.source(g.n);
    tropic_options cpu = {};
    cpu.algorithm = TROPIC_GRAPHBLAS_CPU;
    check_against_dijkstra(g, a.a, s, nullptr, &cpu);
    check_against_dijkstra(g, a.a, s, nullptr, nullptr);  // automatic
    tropic_options dij = {};
    dij.algorithm = TROPIC_DIJKSTRA;
    check_against_dijkstra(g, a.a, s, nullptr, &dij);
    // Plain tropic_sssp gives the same distances.
    vector_guard d;
    char msg[TROPIC_MSG_LEN];
    REQUIRE(tropic_sssp(&d.v, a.a, s, nullptr, msg) == GrB_SUCCESS);
    CHECK(values_of<W>(d.v) == dijkstra(g, s, false).distances);
  }
}

std::string find_shared(const std::string& name) {
  for (const std::string& dir : {std::string(TROPIC_SHARED_DATA), std::string(TROPIC_LOCAL_DATA)}) {
    const std::string path = dir + "/" + name;
    if (std::ifstream(path).good()) return path;
  }
  return "";
}

// Arrays allocated with malloc, as GraphBLAS's default allocator (GrB_init) expects on pack.
template <class T>
T* malloc_copy(const std::vector<T>& v) {
  T* p = static_cast<T*>(std::malloc(std::max<std::size_t>(1, v.size()) * sizeof(T)));
  REQUIRE(p != nullptr);
  std::copy(v.begin(), v.end(), p);
  return p;
}

// A uint32 n x n GrB_Matrix packed from CSR arrays whose rows may be out of order (jumbled):
// GraphBLAS takes copies of ap, aj, ax as they are.
GrB_Matrix jumbled_matrix(vertex n, const std::vector<GrB_Index>& ap,
                          const std::vector<GrB_Index>& aj, const std::vector<std::uint32_t>& ax) {
  GrB_Matrix a = nullptr;
  REQUIRE(GrB_Matrix_new(&a, GrB_UINT32, n, n) == GrB_SUCCESS);
  GrB_Index* p = malloc_copy(ap);
  GrB_Index* c = malloc_copy(aj);
  void* x = malloc_copy(ax);
  REQUIRE(GxB_Matrix_pack_CSR(a, &p, &c, &x, ap.size() * sizeof(GrB_Index),
                              std::max<std::size_t>(1, aj.size()) * sizeof(GrB_Index),
                              std::max<std::size_t>(1, ax.size()) * sizeof(std::uint32_t), false,
                              true, nullptr) == GrB_SUCCESS);
  return a;
}

}  // namespace

TEST_SUITE("c_api") {
  TEST_CASE("all six types against Dijkstra on random graphs") {
    check_type<std::uint32_t>(16, 1001);
    check_type<std::int32_t>(8, 1101);
    check_type<std::uint64_t>(8, 1201);
    check_type<std::int64_t>(8, 1301);
    check_type<float>(16, 1401);
    check_type<double>(8, 1501);
  }

  TEST_CASE("error codes, with A intact and the outputs NULL") {
    const auto g = testing::random_test_graph<float>(5, testing::test_graph_kind::uniform);
    matrix_guard a;
    a.a = matrix_of(g);
    char msg[TROPIC_MSG_LEN];
    GrB_Vector d = nullptr;

    SUBCASE("NULL pointers") {
      CHECK(tropic_sssp(nullptr, a.a, 0, nullptr, msg) == GrB_NULL_POINTER);
      CHECK(std::strlen(msg) > 0);
      CHECK(tropic_sssp(&d, nullptr, 0, nullptr, msg) == GrB_NULL_POINTER);
      CHECK(d == nullptr);
      // msg itself may be NULL.
      CHECK(tropic_sssp(&d, nullptr, 0, nullptr, nullptr) == GrB_NULL_POINTER);
      CHECK(tropic_read_matrix(nullptr, "x", GrB_FP64, msg) == GrB_NULL_POINTER);
    }
    SUBCASE("source out of range") {
      call_expect(GrB_INVALID_INDEX, a.a, g.n, nullptr, nullptr);
      call_expect(GrB_INVALID_INDEX, a.a, ~GrB_Index{0}, nullptr, nullptr);
    }
    SUBCASE("bad delta") {
      GrB_Scalar s = nullptr;
      REQUIRE(GrB_Scalar_new(&s, GrB_FP64) == GrB_SUCCESS);
      REQUIRE(GrB_Scalar_setElement_FP64(s, -1.0) == GrB_SUCCESS);
      call_expect(GrB_INVALID_VALUE, a.a, 0, s, nullptr);
      REQUIRE(GrB_Scalar_setElement_FP64(s, std::nan("")) == GrB_SUCCESS);
      call_expect(GrB_INVALID_VALUE, a.a, 0, s, nullptr);
      tropic_options o = {};
      o.delta = -3;
      call_expect(GrB_INVALID_VALUE, a.a, 0, nullptr, &o);
      GrB_Scalar_free(&s);
    }
    SUBCASE("bad algorithm") {
      tropic_options o = {};
      std::memset(&o.algorithm, 0x7f, sizeof o.algorithm);
      call_expect(GrB_INVALID_VALUE, a.a, 0, nullptr, &o);
      if (!gpu_available()) {
        o.algorithm = TROPIC_DELTA_STEPPING;
        call_expect(GrB_NOT_IMPLEMENTED, a.a, 0, nullptr, &o);
      }
    }
    SUBCASE("not square") {
      matrix_guard r;
      REQUIRE(GrB_Matrix_new(&r.a, GrB_FP32, 4, 5) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_FP32(r.a, 1.0f, 0, 1) == GrB_SUCCESS);
      call_expect(GrB_DIMENSION_MISMATCH, r.a, 0, nullptr, nullptr);
    }
    SUBCASE("unsupported types") {
      for (GrB_Type t : {GrB_BOOL, GrB_INT8, GrB_UINT8, GrB_INT16, GrB_UINT16, GxB_FC32}) {
        matrix_guard b;
        REQUIRE(GrB_Matrix_new(&b.a, t, 3, 3) == GrB_SUCCESS);
        REQUIRE(GrB_Matrix_setElement_INT32(b.a, 1, 0, 1) == GrB_SUCCESS);
        REQUIRE(GrB_Matrix_wait(b.a, GrB_MATERIALIZE) == GrB_SUCCESS);
        call_expect(GrB_NOT_IMPLEMENTED, b.a, 0, nullptr, nullptr);
      }
      GrB_Matrix m = nullptr;
      CHECK(tropic_read_matrix(&m, "/nonexistent", GrB_BOOL, msg) == GrB_NOT_IMPLEMENTED);
      CHECK(m == nullptr);
    }
    SUBCASE("negative weights: accepted by auto, refused by dijkstra; a cycle is GrB_NO_VALUE") {
      matrix_guard i, f;
      REQUIRE(GrB_Matrix_new(&i.a, GrB_INT32, 3, 3) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_INT32(i.a, 2, 0, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_INT32(i.a, -1, 1, 2) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_wait(i.a, GrB_MATERIALIZE) == GrB_SUCCESS);
      call_expect(GrB_SUCCESS, i.a, 0, nullptr, nullptr);
      tropic_options dij = {};
      dij.algorithm = TROPIC_DIJKSTRA;
      call_expect(GrB_INVALID_VALUE, i.a, 0, nullptr, &dij);
      // 2 -> 1 of weight -1 closes 1 -> 2 -> 1 at -2: reachable from 0, not from 2's side only.
      REQUIRE(GrB_Matrix_setElement_INT32(i.a, -1, 2, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_wait(i.a, GrB_MATERIALIZE) == GrB_SUCCESS);
      call_expect(GrB_NO_VALUE, i.a, 0, nullptr, nullptr);
      REQUIRE(GrB_Matrix_new(&f.a, GrB_FP64, 3, 3) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_FP64(f.a, -0.5, 2, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_wait(f.a, GrB_MATERIALIZE) == GrB_SUCCESS);
      call_expect(GrB_SUCCESS, f.a, 0, nullptr, nullptr);
      call_expect(GrB_INVALID_VALUE, f.a, 0, nullptr, &dij);
    }
    SUBCASE("a distance that does not fit the type") {
      matrix_guard o;
      REQUIRE(GrB_Matrix_new(&o.a, GrB_UINT32, 3, 3) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_UINT32(o.a, 3000000000u, 0, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_UINT32(o.a, 3000000000u, 1, 2) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_wait(o.a, GrB_MATERIALIZE) == GrB_SUCCESS);
      tropic_options cpu = {};
      cpu.algorithm = TROPIC_GRAPHBLAS_CPU;
      call_expect(GrB_INVALID_VALUE, o.a, 0, nullptr, &cpu, true);
      call_expect(GrB_INVALID_VALUE, o.a, 0, nullptr, nullptr);
    }
    SUBCASE("a matrix with no rows") {
      matrix_guard e;
      REQUIRE(GrB_Matrix_new(&e.a, GrB_FP64, 0, 0) == GrB_SUCCESS);
      call_expect(GrB_INVALID_INDEX, e.a, 0, nullptr, nullptr);
    }
    SUBCASE("files") {
      GrB_Matrix m = nullptr;
      CHECK(tropic_read_matrix(&m, "/nonexistent/graph.mtx", GrB_FP64, msg) == TROPIC_IO_ERROR);
      CHECK(m == nullptr);
      CHECK(std::strstr(msg, "graph.mtx") != nullptr);
    }
  }

  TEST_CASE("every storage of A gives the same answer and stays as it was") {
    const auto g = testing::random_test_graph<double>(11, testing::test_graph_kind::kronecker);
    const vertex s = 3 % g.n;
    const auto want = dijkstra(g, s, false).distances;
    tropic_options cpu = {};
    cpu.algorithm = TROPIC_GRAPHBLAS_CPU;
    auto check_storage = [&](GrB_Matrix a) {
      check_against_dijkstra(g, a, s, nullptr, &cpu);
      check_against_dijkstra(g, a, s, nullptr, nullptr);
    };
    SUBCASE("by row, sparse") {
      matrix_guard a;
      a.a = matrix_of(g);
      check_storage(a.a);
    }
    SUBCASE("by column") {
      matrix_guard a;
      a.a = matrix_of(g);
      REQUIRE(GxB_Matrix_Option_set_INT32(a.a, GxB_FORMAT, GxB_BY_COL) == GrB_SUCCESS);
      check_storage(a.a);
    }
    SUBCASE("hypersparse") {
      matrix_guard a;
      a.a = matrix_of(g);
      REQUIRE(GxB_Matrix_Option_set_INT32(a.a, GxB_SPARSITY_CONTROL, GxB_HYPERSPARSE) ==
              GrB_SUCCESS);
      int32_t status = 0;
      REQUIRE(GxB_Matrix_Option_get_INT32(a.a, GxB_SPARSITY_STATUS, &status) == GrB_SUCCESS);
      CHECK(status == GxB_HYPERSPARSE);
      check_storage(a.a);
    }
    SUBCASE("bitmap") {
      matrix_guard a;
      a.a = matrix_of(g);
      REQUIRE(GxB_Matrix_Option_set_INT32(a.a, GxB_SPARSITY_CONTROL, GxB_BITMAP) == GrB_SUCCESS);
      check_storage(a.a);
    }
  }

  TEST_CASE("full, iso and jumbled matrices") {
    // A complete graph on 5 vertices with every weight 2 (iso), self-loops included (full).
    detail::ensure_graphblas();
    matrix_guard a;
    REQUIRE(GrB_Matrix_new(&a.a, GrB_INT64, 5, 5) == GrB_SUCCESS);
    REQUIRE(GrB_Matrix_assign_INT64(a.a, nullptr, nullptr, 2, GrB_ALL, 5, GrB_ALL, 5, nullptr) ==
            GrB_SUCCESS);
    REQUIRE(GrB_Matrix_wait(a.a, GrB_MATERIALIZE) == GrB_SUCCESS);
    for (int storage : {GxB_FULL, GxB_SPARSE}) {
      CAPTURE(storage);
      REQUIRE(GxB_Matrix_Option_set_INT32(a.a, GxB_SPARSITY_CONTROL, storage) == GrB_SUCCESS);
      const snapshot before(a.a);
      CHECK(before.iso);
      vector_guard d;
      char msg[TROPIC_MSG_LEN];
      REQUIRE(tropic_sssp(&d.v, a.a, 4, nullptr, msg) == GrB_SUCCESS);
      CHECK(values_of<std::int64_t>(d.v) == std::vector<std::int64_t>{2, 2, 2, 2, 0});
      CHECK(snapshot(a.a) == before);
    }

    // Jumbled: each row's columns in descending order, handed to GraphBLAS as jumbled.
    const auto g = testing::random_test_graph<std::uint32_t>(
        21, testing::test_graph_kind::grid, {false, false});
    std::vector<GrB_Index> ap(g.row_offsets.begin(), g.row_offsets.end()), aj;
    std::vector<std::uint32_t> ax;
    for (vertex u = 0; u < g.n; ++u)
      for (arc_index e = g.row_offsets[u + 1]; e-- > g.row_offsets[u];) {
        aj.push_back(g.columns[e]);
        ax.push_back(g.weights[e]);
      }
    matrix_guard j;
    j.a = jumbled_matrix(g.n, ap, aj, ax);
    tropic_options cpu = {};
    cpu.algorithm = TROPIC_GRAPHBLAS_CPU;
    check_against_dijkstra(g, j.a, 0, nullptr, &cpu);
    // A is still jumbled and in descending order: unpack it ourselves and look.
    GrB_Index *p2 = nullptr, *c2 = nullptr, sp = 0, sc = 0, sx = 0;
    void* x2 = nullptr;
    bool iso = true, jumbled = false;
    REQUIRE(GxB_Matrix_unpack_CSR(j.a, &p2, &c2, &x2, &sp, &sc, &sx, &iso, &jumbled, nullptr) ==
            GrB_SUCCESS);
    CHECK(jumbled);
    CHECK(!iso);
    CHECK(std::vector<GrB_Index>(c2, c2 + aj.size()) == aj);
    REQUIRE(GxB_Matrix_pack_CSR(j.a, &p2, &c2, &x2, sp, sc, sx, iso, jumbled, nullptr) ==
            GrB_SUCCESS);
  }

  TEST_CASE("a jumbled matrix with self-loops above the parallel copy's threshold") {
    // Over 2^20 entries, so the C API copies A's arrays into tropic's CSR with all threads:
    // every third row jumbled (descending columns), every fifth with a self-loop, iso off.
    // Dijkstra through the C API against Dijkstra on the graph itself; the parents it returns
    // must be arcs of the graph with tight weights (verify), which a misplaced arc would break.
    detail::ensure_graphblas();
    const csr<std::uint32_t> g = generate_uniform<std::uint32_t>(200000, 6, 77, 1, 1000);
    std::vector<GrB_Index> ap(1, 0), aj;
    std::vector<std::uint32_t> ax;
    for (vertex u = 0; u < g.n; ++u) {
      const std::size_t first = aj.size();
      for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
        aj.push_back(g.columns[e]);
        ax.push_back(g.weights[e]);
      }
      if (u % 5 == 0) {  // a self-loop of weight 0, where it would be the lightest arc
        aj.push_back(u);
        ax.push_back(0);
      }
      std::vector<std::pair<GrB_Index, std::uint32_t>> row;
      for (std::size_t k = first; k < aj.size(); ++k) row.emplace_back(aj[k], ax[k]);
      std::sort(row.begin(), row.end());
      if (u % 3 == 0) std::reverse(row.begin(), row.end());
      for (std::size_t k = 0; k < row.size(); ++k) {
        aj[first + k] = row[k].first;
        ax[first + k] = row[k].second;
      }
      ap.push_back(aj.size());
    }
    REQUIRE(aj.size() > (std::size_t{1} << 20));
    matrix_guard j;
    j.a = jumbled_matrix(g.n, ap, aj, ax);
    tropic_options dij = {};
    dij.algorithm = TROPIC_DIJKSTRA;
    for (const vertex s : {vertex(0), vertex(12345), vertex(199999)})
      check_against_dijkstra(g, j.a, s, nullptr, &dij);

    // The copy itself, from the same arrays: g exactly (sorted rows, loops gone), and with iso
    // every weight the first value.
    const csr<std::uint32_t> copy = detail::csr_of_graphblas_arrays<std::uint32_t>(
        g.n, ap.data(), aj.data(), ax.data(), false, true);
    CHECK(copy.row_offsets == g.row_offsets);
    CHECK(copy.columns == g.columns);
    CHECK(copy.weights == g.weights);
    const csr<std::uint32_t> iso = detail::csr_of_graphblas_arrays<std::uint32_t>(
        g.n, ap.data(), aj.data(), ax.data(), true, true);
    CHECK(iso.columns == g.columns);
    CHECK(std::all_of(iso.weights.begin(), iso.weights.end(),
                      [&](std::uint32_t w) { return w == ax[0]; }));
  }

  TEST_CASE("delta: NULL, empty, typed scalars, fractional, huge, and the options override") {
    const auto g = testing::random_test_graph<float>(31, testing::test_graph_kind::uniform);
    matrix_guard a;
    a.a = matrix_of(g);
    tropic_options cpu = {};
    cpu.algorithm = TROPIC_GRAPHBLAS_CPU;
    GrB_Scalar s = nullptr;
    REQUIRE(GrB_Scalar_new(&s, GrB_FP64) == GrB_SUCCESS);
    check_against_dijkstra(g, a.a, 1, nullptr, &cpu);
    check_against_dijkstra(g, a.a, 1, s, &cpu);  // empty: automatic
    for (double delta : {1.0, 0.5, 0.37, 1e30, static_cast<double>(INFINITY)}) {
      CAPTURE(delta);
      REQUIRE(GrB_Scalar_setElement_FP64(s, delta) == GrB_SUCCESS);
      check_against_dijkstra(g, a.a, 1, s, &cpu);
      vector_guard d;
      tropic_stats st = {};
      st.struct_size = sizeof st;
      char msg[TROPIC_MSG_LEN];
      REQUIRE(tropic_sssp_ext(&d.v, nullptr, &st, a.a, 1, s, &cpu, msg) == GrB_SUCCESS);
      CHECK(st.delta == delta);
      CHECK(std::string(st.algorithm) == "graphblas_cpu");
    }
    GrB_Scalar_free(&s);
    REQUIRE(GrB_Scalar_new(&s, GrB_UINT32) == GrB_SUCCESS);
    REQUIRE(GrB_Scalar_setElement_UINT32(s, 3) == GrB_SUCCESS);
    vector_guard d;
    tropic_stats st = {};
    st.struct_size = sizeof st;
    char msg[TROPIC_MSG_LEN];
    REQUIRE(tropic_sssp_ext(&d.v, nullptr, &st, a.a, 1, s, &cpu, msg) == GrB_SUCCESS);
    CHECK(st.delta == 3.0);
    cpu.delta = 5.5;  // the options win over the scalar
    vector_guard d2;
    REQUIRE(tropic_sssp_ext(&d2.v, nullptr, &st, a.a, 1, s, &cpu, msg) == GrB_SUCCESS);
    CHECK(st.delta == 5.5);
    CHECK(values_of<float>(d.v) == values_of<float>(d2.v));
    GrB_Scalar_free(&s);

    // Integer graphs with a fractional delta.
    const auto gi = testing::random_test_graph<std::int32_t>(32, testing::test_graph_kind::grid);
    matrix_guard ai;
    ai.a = matrix_of(gi);
    cpu.delta = 2.5;
    check_against_dijkstra(gi, ai.a, 0, nullptr, &cpu);
    cpu.delta = 0.25;
    check_against_dijkstra(gi, ai.a, 0, nullptr, &cpu);
  }

  TEST_CASE("shared real graphs through the C API") {
    const std::string ny = find_shared("USA-road-d.NY.gr.gz");
    if (ny.empty()) {
      MESSAGE("skipped: USA-road-d.NY.gr.gz is in neither " << TROPIC_SHARED_DATA << " nor "
                                                            << TROPIC_LOCAL_DATA);
      return;
    }
    matrix_guard a;
    char msg[TROPIC_MSG_LEN];
    REQUIRE(tropic_read_matrix(&a.a, ny.c_str(), GrB_INT64, msg) == GrB_SUCCESS);
    GrB_Index n = 0;
    REQUIRE(GrB_Matrix_nrows(&n, a.a) == GrB_SUCCESS);
    CHECK(n == 264346);
    tropic_options cpu = {};
    cpu.algorithm = TROPIC_GRAPHBLAS_CPU;
    vector_guard d;
    tropic_stats st = {};
    st.struct_size = sizeof st;
    REQUIRE(tropic_sssp_ext(&d.v, nullptr, &st, a.a, 100000, nullptr, &cpu, msg) == GrB_SUCCESS);
    const auto dist = values_of<std::int64_t>(d.v);
    std::int64_t max_distance = 0, sum = 0, reached = 0;
    for (auto x : dist) {
      if (x == std::numeric_limits<std::int64_t>::max()) continue;
      ++reached;
      sum += x;
      max_distance = std::max(max_distance, x);
    }
    // ../shared/data/README.md: source 100000 reaches all, max 1,142,467, sum 130,656,715,456.
    CHECK(reached == 264346);
    CHECK(max_distance == 1142467);
    CHECK(sum == 130656715456LL);
    MESSAGE("NY via the C API: solve " << st.milliseconds << " ms, setup "
                                       << st.setup_milliseconds << " ms, interop "
                                       << st.interop_milliseconds << " ms");

    const std::string mdual = find_shared("mdual.mtx.gz");
    if (mdual.empty()) return;
    read_options ro;
    ro.unit_weights = true;
    const auto g = read_graph<float>(mdual, ro);
    matrix_guard m;
    m.a = matrix_of(g);
    check_against_dijkstra(g, m.a, 0, nullptr, &cpu);
  }

  TEST_CASE("the time breakdown in tropic_stats adds up") {
    const auto g = testing::random_test_graph<double>(12, testing::test_graph_kind::grid);
    REQUIRE(g.arcs() > 0);
    const auto want = dijkstra(g, 0, false).distances;
    std::vector<tropic_algorithm> algorithms = {TROPIC_GRAPHBLAS_CPU};
    if (gpu_available()) algorithms.push_back(TROPIC_DELTA_STEPPING);
    for (const bool by_column : {false, true}) {
      for (const tropic_algorithm alg : algorithms) {
        CAPTURE(by_column);
        CAPTURE(static_cast<int>(alg));
        matrix_guard a;
        a.a = matrix_of(g);
        if (by_column)  // not lendable as CSR: the dup and its conversion count as unpacking
          REQUIRE(GxB_Matrix_Option_set_INT32(a.a, GxB_FORMAT, GxB_BY_COL) == GrB_SUCCESS);
        tropic_options o = {};
        o.algorithm = alg;
        tropic_stats st;
        std::memset(&st, 0xff, sizeof st);  // every field must be written: NaN until it is
        st.struct_size = sizeof st;
        vector_guard d;
        char msg[TROPIC_MSG_LEN];
        const auto start = std::chrono::steady_clock::now();
        REQUIRE(tropic_sssp_ext(&d.v, nullptr, &st, a.a, 0, nullptr, &o, msg) == GrB_SUCCESS);
        const double wall = std::chrono::duration<double, std::milli>(
                                std::chrono::steady_clock::now() - start)
                                .count();
        result<double> got;
        got.distances = values_of<double>(d.v);
        CHECK(verify(g, 0, want, got) == "");
        const double parts[] = {st.unpack_milliseconds, st.copy_milliseconds,
                                st.pack_milliseconds, st.sssp_milliseconds,
                                st.output_milliseconds};
        for (double x : parts) CHECK((std::isfinite(x) && x >= 0));
        // Copying thousands of arcs and building a vector take measurable time.
        CHECK(st.copy_milliseconds > 0);
        CHECK(st.output_milliseconds > 0);
        CHECK(st.interop_milliseconds ==
              doctest::Approx(st.unpack_milliseconds + st.copy_milliseconds +
                              st.pack_milliseconds + st.output_milliseconds));
        // The algorithm's setup and solve happen inside the timed sssp call (CUDA events for
        // the GPU solve, hence the small allowance), and everything inside the API call.
        CHECK(st.setup_milliseconds <= st.sssp_milliseconds);
        CHECK(st.setup_milliseconds + st.milliseconds <= st.sssp_milliseconds * 1.01 + 0.05);
        CHECK(st.interop_milliseconds + st.sssp_milliseconds <= wall);
      }
    }
  }

  // issue 39: a NaN weight was an absent arc for dijkstra (GrB_SUCCESS) and a misleading "delta
  // must be positive, got nan" for auto/graphblas_cpu. Every algorithm, on CPU or GPU, must see
  // GrB_INVALID_VALUE naming the arc before it runs (so no GPU is needed to check it).
  TEST_CASE("NaN and infinite weights are rejected naming the arc, for every algorithm") {
    const double bad[] = {std::nan(""), std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity()};
    const char* const shown[] = {"nan", "inf", "-inf"};
    detail::ensure_graphblas();
    for (int b = 0; b < 3; ++b) {
      for (const bool fp32 : {false, true}) {
        CAPTURE(shown[b]);
        CAPTURE(fp32);
        matrix_guard a;
        REQUIRE(GrB_Matrix_new(&a.a, fp32 ? GrB_FP32 : GrB_FP64, 4, 4) == GrB_SUCCESS);
        REQUIRE(GrB_Matrix_setElement_FP64(a.a, 1.0, 0, 1) == GrB_SUCCESS);
        REQUIRE(GrB_Matrix_setElement_FP64(a.a, bad[b], 1, 2) == GrB_SUCCESS);
        REQUIRE(GrB_Matrix_setElement_FP64(a.a, 2.0, 2, 3) == GrB_SUCCESS);
        REQUIRE(GrB_Matrix_wait(a.a, GrB_MATERIALIZE) == GrB_SUCCESS);
        for (int alg = TROPIC_AUTO; alg <= TROPIC_RDBS; ++alg) {
          CAPTURE(alg);
          tropic_options o = {};
          o.algorithm = static_cast<decltype(o.algorithm)>(alg);
          call_expect(GrB_INVALID_VALUE, a.a, 0, nullptr, &o);
          GrB_Vector d = nullptr;
          char msg[TROPIC_MSG_LEN];
          REQUIRE(tropic_sssp_ext(&d, nullptr, nullptr, a.a, 0, nullptr, &o, msg) ==
                  GrB_INVALID_VALUE);
          INFO("message: " << msg);
          CHECK(std::string(msg).find(std::string("A(1, 2) = ") + shown[b]) != std::string::npos);
        }
      }
    }
  }

  TEST_CASE("an integer type's largest value (its infinity) is rejected as a weight, naming it") {
    detail::ensure_graphblas();
    matrix_guard a;
    REQUIRE(GrB_Matrix_new(&a.a, GrB_UINT32, 3, 3) == GrB_SUCCESS);
    REQUIRE(GrB_Matrix_setElement_UINT32(a.a, 4294967295u, 0, 1) == GrB_SUCCESS);
    REQUIRE(GrB_Matrix_wait(a.a, GrB_MATERIALIZE) == GrB_SUCCESS);
    call_expect(GrB_INVALID_VALUE, a.a, 0, nullptr, nullptr);
    GrB_Vector d = nullptr;
    char msg[TROPIC_MSG_LEN];
    REQUIRE(tropic_sssp(&d, a.a, 0, nullptr, msg) == GrB_INVALID_VALUE);
    CHECK(std::string(msg).find("A(0, 1) = 4294967295") != std::string::npos);
  }

  TEST_CASE("pending work, 1x1, overflow edges and huge hypersparse dimensions") {
    detail::ensure_graphblas();
    SUBCASE("pending setElement work is seen, and the answer is right") {
      matrix_guard a;
      REQUIRE(GrB_Matrix_new(&a.a, GrB_FP64, 3, 3) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_FP64(a.a, 1.5, 0, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_FP64(a.a, 2.0, 1, 2) == GrB_SUCCESS);  // pending tuples
      vector_guard d;
      char msg[TROPIC_MSG_LEN];
      tropic_options o = {};
      o.algorithm = TROPIC_DIJKSTRA;
      REQUIRE(tropic_sssp_ext(&d.v, nullptr, nullptr, a.a, 0, nullptr, &o, msg) == GrB_SUCCESS);
      CHECK(values_of<double>(d.v) == std::vector<double>{0, 1.5, 3.5});
      GrB_Index nvals = 0;
      REQUIRE(GrB_Matrix_nvals(&nvals, a.a) == GrB_SUCCESS);
      CHECK(nvals == 2);
    }
    SUBCASE("1x1, empty and with a self-loop") {
      for (const bool loop : {false, true}) {
        matrix_guard a;
        REQUIRE(GrB_Matrix_new(&a.a, GrB_UINT32, 1, 1) == GrB_SUCCESS);
        if (loop) REQUIRE(GrB_Matrix_setElement_UINT32(a.a, 7, 0, 0) == GrB_SUCCESS);
        vector_guard d;
        char msg[TROPIC_MSG_LEN];
        REQUIRE(tropic_sssp(&d.v, a.a, 0, nullptr, msg) == GrB_SUCCESS);
        CHECK(values_of<std::uint32_t>(d.v) == std::vector<std::uint32_t>{0});
        call_expect(GrB_INVALID_INDEX, a.a, 1, nullptr, nullptr);
      }
    }
    SUBCASE("distances that overflow uint32, int64 and float fail, naming the overflow") {
      tropic_options o = {};
      o.algorithm = TROPIC_DIJKSTRA;
      matrix_guard a;
      REQUIRE(GrB_Matrix_new(&a.a, GrB_UINT32, 3, 3) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_UINT32(a.a, 4294967294u, 0, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_UINT32(a.a, 4294967294u, 1, 2) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_wait(a.a, GrB_MATERIALIZE) == GrB_SUCCESS);
      call_expect(GrB_INVALID_VALUE, a.a, 0, nullptr, &o);
      matrix_guard b;
      REQUIRE(GrB_Matrix_new(&b.a, GrB_INT64, 3, 3) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_INT64(b.a, INT64_MAX - 1, 0, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_INT64(b.a, INT64_MAX - 1, 1, 2) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_wait(b.a, GrB_MATERIALIZE) == GrB_SUCCESS);
      call_expect(GrB_INVALID_VALUE, b.a, 0, nullptr, &o);
      matrix_guard c;
      REQUIRE(GrB_Matrix_new(&c.a, GrB_FP32, 3, 3) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_FP32(c.a, 3e38f, 0, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_FP32(c.a, 3e38f, 1, 2) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_wait(c.a, GrB_MATERIALIZE) == GrB_SUCCESS);
      call_expect(GrB_INVALID_VALUE, c.a, 0, nullptr, &o);
      // Just below the edge: exact.
      matrix_guard e;
      REQUIRE(GrB_Matrix_new(&e.a, GrB_UINT64, 3, 3) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_UINT64(e.a, 9007199254740993ull, 0, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_UINT64(e.a, 1, 1, 2) == GrB_SUCCESS);
      vector_guard d;
      char msg[TROPIC_MSG_LEN];
      REQUIRE(tropic_sssp_ext(&d.v, nullptr, nullptr, e.a, 0, nullptr, &o, msg) == GrB_SUCCESS);
      CHECK(values_of<std::uint64_t>(d.v) ==
            std::vector<std::uint64_t>{0, 9007199254740993ull, 9007199254740994ull});
    }
    SUBCASE("hypersparse dimensions beyond 32-bit vertex ids are refused, A intact") {
      for (const GrB_Index n : {GrB_Index{1} << 32, GrB_Index{1} << 40, GrB_INDEX_MAX}) {
        CAPTURE(n);
        matrix_guard a;
        REQUIRE(GrB_Matrix_new(&a.a, GrB_FP64, n, n) == GrB_SUCCESS);
        REQUIRE(GrB_Matrix_setElement_FP64(a.a, 1.0, 0, n - 1) == GrB_SUCCESS);
        REQUIRE(GrB_Matrix_wait(a.a, GrB_MATERIALIZE) == GrB_SUCCESS);
        call_expect(GrB_NOT_IMPLEMENTED, a.a, 0, nullptr, nullptr);
      }
    }
  }

  // The rows of README.md's parity table with LAGr_SingleSourceShortestPath, one SUBCASE each.
  TEST_CASE("parity with LAGr_SingleSourceShortestPath: every row of the README table") {
    detail::ensure_graphblas();
    char msg[TROPIC_MSG_LEN];
    tropic_options cpu = {};
    cpu.algorithm = TROPIC_GRAPHBLAS_CPU;
    const auto gi = testing::random_test_graph<std::int32_t>(41, testing::test_graph_kind::grid);
    matrix_guard ai;
    ai.a = matrix_of(gi);
    auto delta_used = [&](GrB_Matrix a, GrB_Scalar delta, const tropic_options* o) {
      vector_guard d;
      tropic_stats st = {};
      st.struct_size = sizeof st;
      REQUIRE(tropic_sssp_ext(&d.v, nullptr, &st, a, 0, delta, o, msg) == GrB_SUCCESS);
      return st.delta;
    };

    SUBCASE("Delta NULL, empty or zero: tropic's automatic Delta") {
      GrB_Scalar s = nullptr;
      REQUIRE(GrB_Scalar_new(&s, GrB_FP64) == GrB_SUCCESS);
      const double automatic = delta_used(ai.a, nullptr, &cpu);
      CHECK(automatic > 0);
      CHECK(delta_used(ai.a, s, &cpu) == automatic);  // empty
      REQUIRE(GrB_Scalar_setElement_FP64(s, 0.0) == GrB_SUCCESS);
      CHECK(delta_used(ai.a, s, &cpu) == automatic);  // zero: LAGraph would never return
      check_against_dijkstra(gi, ai.a, 0, s, &cpu);
      check_against_dijkstra(gi, ai.a, 0, s, nullptr);
      GrB_Scalar_free(&s);
    }
    SUBCASE("Delta negative or NaN: GrB_INVALID_VALUE") {
      GrB_Scalar s = nullptr;
      REQUIRE(GrB_Scalar_new(&s, GrB_INT32) == GrB_SUCCESS);
      REQUIRE(GrB_Scalar_setElement_INT32(s, -2) == GrB_SUCCESS);
      call_expect(GrB_INVALID_VALUE, ai.a, 0, s, nullptr);
      call_expect(GrB_INVALID_VALUE, ai.a, 0, s, &cpu);
      GrB_Scalar_free(&s);
      REQUIRE(GrB_Scalar_new(&s, GrB_FP32) == GrB_SUCCESS);
      REQUIRE(GrB_Scalar_setElement_FP32(s, std::nanf("")) == GrB_SUCCESS);
      call_expect(GrB_INVALID_VALUE, ai.a, 0, s, &cpu);
      GrB_Scalar_free(&s);
    }
    SUBCASE("Delta fractional on an integer matrix: read as a double, never cast to A's type") {
      GrB_Scalar s = nullptr;
      REQUIRE(GrB_Scalar_new(&s, GrB_FP64) == GrB_SUCCESS);
      for (double delta : {2.5, 0.5}) {  // LAGraph: 2 and 0 (which never returns)
        CAPTURE(delta);
        REQUIRE(GrB_Scalar_setElement_FP64(s, delta) == GrB_SUCCESS);
        CHECK(delta_used(ai.a, s, &cpu) == delta);
        check_against_dijkstra(gi, ai.a, 0, s, &cpu);
        check_against_dijkstra(gi, ai.a, 0, s, nullptr);
      }
      GrB_Scalar_free(&s);
    }
    SUBCASE("each element type: the six tropic takes, the rest GrB_NOT_IMPLEMENTED") {
      check_type<std::uint32_t>(2, 4001);
      check_type<std::int32_t>(2, 4101);
      check_type<std::uint64_t>(2, 4201);
      check_type<std::int64_t>(2, 4301);
      check_type<float>(2, 4401);
      check_type<double>(2, 4501);
      matrix_guard b;
      REQUIRE(GrB_Matrix_new(&b.a, GrB_INT16, 2, 2) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_INT32(b.a, 1, 0, 1) == GrB_SUCCESS);
      call_expect(GrB_NOT_IMPLEMENTED, b.a, 0, nullptr, nullptr);
    }
    SUBCASE("stored by column, iso-valued, hypersparse: same answer, A as it was") {
      matrix_guard c;
      c.a = matrix_of(gi);
      REQUIRE(GxB_Matrix_Option_set_INT32(c.a, GxB_FORMAT, GxB_BY_COL) == GrB_SUCCESS);
      REQUIRE(GxB_Matrix_Option_set_INT32(c.a, GxB_SPARSITY_CONTROL, GxB_HYPERSPARSE) ==
              GrB_SUCCESS);
      check_against_dijkstra(gi, c.a, 0, nullptr, &cpu);
      check_against_dijkstra(gi, c.a, 0, nullptr, nullptr);
      // iso: every arc weight 3
      csr<std::int32_t> iso = gi;
      std::fill(iso.weights.begin(), iso.weights.end(), 3);
      matrix_guard j;
      j.a = matrix_of(iso);
      CHECK(snapshot(j.a).iso);
      check_against_dijkstra(iso, j.a, 0, nullptr, &cpu);
      check_against_dijkstra(iso, j.a, 0, nullptr, nullptr);
    }
    SUBCASE("pending work (pending tuples, zombies): finished by tropic, the answer exact") {
      matrix_guard p;
      REQUIRE(GrB_Matrix_new(&p.a, GrB_INT32, gi.n, gi.n) == GrB_SUCCESS);
      for (vertex u = 0; u < gi.n; ++u)
        for (arc_index e = gi.row_offsets[u]; e < gi.row_offsets[u + 1]; ++e)
          if (gi.columns[e] != u)
            REQUIRE(GrB_Matrix_setElement_INT32(p.a, gi.weights[e], u, gi.columns[e]) ==
                    GrB_SUCCESS);
      // A zombie: an entry deleted without a wait (GraphBLAS leaves setElement's tuples and
      // removeElement's zombies pending until a wait or a method that needs them).
      REQUIRE(GrB_Matrix_removeElement(p.a, gi.n - 1, gi.n - 2) == GrB_SUCCESS);
      // the graph as it now is: the lightest of parallel arcs (setElement keeps the last one)
      GrB_Index nvals = 0;
      REQUIRE(GrB_Matrix_nvals(&nvals, p.a) == GrB_SUCCESS);
      std::vector<GrB_Index> I(nvals), J(nvals);
      std::vector<std::int32_t> X(nvals);
      REQUIRE(GrB_Matrix_extractTuples_INT32(I.data(), J.data(), X.data(), &nvals, p.a) ==
              GrB_SUCCESS);
      arc_list<std::int32_t> arcs;
      arcs.n = gi.n;
      for (GrB_Index k = 0; k < nvals; ++k)
        arcs.push_back(static_cast<vertex>(I[k]), static_cast<vertex>(J[k]), X[k]);
      const csr<std::int32_t> g = build_csr(arcs);
      // Pending work again (extractTuples finished it): tropic must finish it itself.
      REQUIRE(GrB_Matrix_setElement_INT32(p.a, 7, 0, gi.n - 1) == GrB_SUCCESS);
      arcs.push_back(0, gi.n - 1, 7);
      const csr<std::int32_t> g2 = build_csr(arcs, {duplicate_policy::keep_last});
      vector_guard d;
      REQUIRE(tropic_sssp(&d.v, p.a, 0, nullptr, msg) == GrB_SUCCESS);
      CHECK(values_of<std::int32_t>(d.v) == dijkstra(g2, 0, false).distances);
      CHECK(g.n == g2.n);
    }
    SUBCASE("the unreachable value: INFINITY for FP32/FP64, the type's maximum for integers") {
      auto unreachable = [&](auto w) {
        using W = decltype(w);
        csr<W> g;  // 0 -> 1, and 2 cut off
        g.n = 3;
        g.row_offsets = {0, 1, 1, 1};
        g.columns = {1};
        g.weights = {W(4)};
        matrix_guard a;
        a.a = matrix_of(g);
        vector_guard d;
        REQUIRE(tropic_sssp(&d.v, a.a, 0, nullptr, msg) == GrB_SUCCESS);
        const auto x = values_of<W>(d.v);
        CHECK(x[0] == W(0));
        CHECK(x[1] == W(4));
        if constexpr (std::is_floating_point_v<W>)
          CHECK((std::isinf(x[2]) && x[2] > 0));
        else
          CHECK(x[2] == std::numeric_limits<W>::max());
      };
      unreachable(std::uint32_t{});
      unreachable(std::int32_t{});
      unreachable(std::uint64_t{});
      unreachable(std::int64_t{});
      unreachable(float{});
      unreachable(double{});
    }
    SUBCASE("the output: a new dense vector of A's type, n entries, unreachable ones included") {
      matrix_guard a;
      csr<double> g;
      g.n = 4;
      g.row_offsets = {0, 1, 1, 1, 1};
      g.columns = {1};
      g.weights = {0.5};
      a.a = matrix_of(g);
      vector_guard d;
      REQUIRE(tropic_sssp(&d.v, a.a, 0, nullptr, msg) == GrB_SUCCESS);
      GrB_Index n = 0, k = 0;
      REQUIRE(GrB_Vector_size(&n, d.v) == GrB_SUCCESS);
      REQUIRE(GrB_Vector_nvals(&k, d.v) == GrB_SUCCESS);
      CHECK(n == 4);
      CHECK(k == 4);
      GrB_Type t = nullptr;
      REQUIRE(GxB_Vector_type(&t, d.v) == GrB_SUCCESS);
      CHECK(t == GrB_FP64);
      int32_t sparsity = 0;  // LAGraph's is bitmap with every entry present; ours full
      REQUIRE(GxB_Vector_Option_get_INT32(d.v, GxB_SPARSITY_STATUS, &sparsity) == GrB_SUCCESS);
      CHECK(sparsity == GxB_FULL);
    }
    SUBCASE("negative arcs, every signed type: exact, whatever Delta; unsigned types unchanged") {
      GrB_Scalar s = nullptr;
      REQUIRE(GrB_Scalar_new(&s, GrB_FP64) == GrB_SUCCESS);
      REQUIRE(GrB_Scalar_setElement_FP64(s, 2.5) == GrB_SUCCESS);
      auto signed_type = [&](auto w) {
        using W = decltype(w);
        for (const auto& c : testing::test_graph_cases(8, 4601)) {
          const auto k = testing::reweighted_case<W>(c);
          if (k.g.n == 0) continue;
          CAPTURE(k.name);
          matrix_guard a;
          a.a = matrix_of(k.g);
          check_against_dijkstra(k.g, a.a, k.source, nullptr, nullptr);  // the reference
          check_against_dijkstra(k.g, a.a, k.source, s, &cpu);
          vector_guard d;
          REQUIRE(tropic_sssp(&d.v, a.a, k.source, s, msg) == GrB_SUCCESS);
          // k.want: the distances known through potentials, without any Bellman-Ford
          CHECK(values_of<W>(d.v) == k.want);
        }
      };
      signed_type(std::int32_t{});
      signed_type(std::int64_t{});
      signed_type(float{});
      signed_type(double{});
      GrB_Scalar_free(&s);
      // Self-loops: dropped from tropic's copy, a negative one too (LAGraph would loop on it).
      matrix_guard l;
      REQUIRE(GrB_Matrix_new(&l.a, GrB_INT32, 3, 3) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_INT32(l.a, 4, 0, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_INT32(l.a, -2, 1, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_INT32(l.a, -3, 1, 2) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_wait(l.a, GrB_MATERIALIZE) == GrB_SUCCESS);
      call_expect(GrB_SUCCESS, l.a, 0, nullptr, nullptr);
      vector_guard d;
      REQUIRE(tropic_sssp(&d.v, l.a, 0, nullptr, msg) == GrB_SUCCESS);
      CHECK(values_of<std::int32_t>(d.v) == std::vector<std::int32_t>{0, 4, 1});
      check_type<std::uint32_t>(2, 4701);
      check_type<std::uint64_t>(2, 4801);
    }
    SUBCASE("a reachable negative cycle: GrB_NO_VALUE naming a vertex on it; unreachable: exact") {
      for (const auto& c : testing::test_graph_cases(8, 4901)) {
        const auto base = testing::reweighted_case<std::int64_t>(c);
        if (base.g.n < 2) continue;
        const auto hit = testing::with_planted_cycle(base, 3, true);
        CAPTURE(hit.name);
        matrix_guard a;
        a.a = matrix_of(hit.g);
        for (const tropic_options* o : {static_cast<const tropic_options*>(nullptr),
                                        static_cast<const tropic_options*>(&cpu)}) {
          call_expect(GrB_NO_VALUE, a.a, hit.source, nullptr, o);
          vector_guard d;
          REQUIRE(tropic_sssp_ext(&d.v, nullptr, nullptr, a.a, hit.source, nullptr, o, msg) ==
                  GrB_NO_VALUE);
          INFO(msg);
          CHECK(std::find(hit.cycle.begin(), hit.cycle.end(), testing::named_cycle_vertex(msg)) !=
                hit.cycle.end());
        }
        const auto miss = testing::with_planted_cycle(base, 3, false);
        matrix_guard m;
        m.a = matrix_of(miss.g);
        vector_guard d;
        REQUIRE(tropic_sssp(&d.v, m.a, miss.source, nullptr, msg) == GrB_SUCCESS);
        CHECK(values_of<std::int64_t>(d.v) == miss.want);
      }
    }
  }
}
