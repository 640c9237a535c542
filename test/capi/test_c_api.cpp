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
  const auto want = dijkstra(g, s, false).distances;
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
    SUBCASE("negative weights") {
      matrix_guard i, f;
      REQUIRE(GrB_Matrix_new(&i.a, GrB_INT32, 3, 3) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_INT32(i.a, 2, 0, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_INT32(i.a, -1, 1, 2) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_wait(i.a, GrB_MATERIALIZE) == GrB_SUCCESS);
      call_expect(GrB_INVALID_VALUE, i.a, 0, nullptr, nullptr);
      REQUIRE(GrB_Matrix_new(&f.a, GrB_FP64, 3, 3) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_setElement_FP64(f.a, -0.5, 2, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Matrix_wait(f.a, GrB_MATERIALIZE) == GrB_SUCCESS);
      call_expect(GrB_INVALID_VALUE, f.a, 0, nullptr, nullptr);
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
}
