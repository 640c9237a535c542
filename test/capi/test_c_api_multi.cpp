// tropic_sssp_multi and the cutoff of the C API: D's rows against Dijkstra truncated at the
// cutoff for all six types (absent entries exactly where unreachable or beyond), every argument
// error with A intact and *D NULL, and tropic_options' struct_size rules.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "many_sources.hpp"
#include "random_graphs.hpp"
#include "tropic/detail/graphblas_session.hpp"
#include "tropic/sssp.hpp"
#include "tropic/tropic.h"

using namespace tropic;

namespace {

template <class W>
struct gbm;
#define TROPIC_TEST_GB(W, T)                                                                \
  template <>                                                                               \
  struct gbm<W> {                                                                           \
    static GrB_Type type() { return GrB_##T; }                                              \
    static GrB_Info build(GrB_Matrix a, const GrB_Index* i, const GrB_Index* j, const W* x, \
                          GrB_Index k) {                                                    \
      return GrB_Matrix_build_##T(a, i, j, x, k, GrB_MIN_##T);                              \
    }                                                                                       \
    static GrB_Info tuples(GrB_Index* i, GrB_Index* j, W* x, GrB_Index* k, GrB_Matrix a) {  \
      return GrB_Matrix_extractTuples_##T(i, j, x, k, a);                                   \
    }                                                                                       \
  };
TROPIC_TEST_GB(std::uint32_t, UINT32)
TROPIC_TEST_GB(std::int32_t, INT32)
TROPIC_TEST_GB(std::uint64_t, UINT64)
TROPIC_TEST_GB(std::int64_t, INT64)
TROPIC_TEST_GB(float, FP32)
TROPIC_TEST_GB(double, FP64)
#undef TROPIC_TEST_GB

struct guard {
  GrB_Matrix a = nullptr;
  GrB_Vector v = nullptr;
  GrB_Scalar s = nullptr;
  ~guard() {
    GrB_Matrix_free(&a);
    GrB_Vector_free(&v);
    GrB_Scalar_free(&s);
  }
};

template <class W>
GrB_Matrix matrix_of(const csr<W>& g) {
  detail::ensure_graphblas();
  std::vector<GrB_Index> i, j;
  for (vertex u = 0; u < g.n; ++u)
    for (arc_index e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e)
      i.push_back(u), j.push_back(g.columns[e]);
  GrB_Matrix a = nullptr;
  REQUIRE(GrB_Matrix_new(&a, gbm<W>::type(), g.n, g.n) == GrB_SUCCESS);
  if (!i.empty())
    REQUIRE(gbm<W>::build(a, i.data(), j.data(), g.weights.data(), i.size()) == GrB_SUCCESS);
  return a;
}

// A's entries, to check that a call left A as it was.
template <class W>
std::vector<double> entries_of(GrB_Matrix a) {
  GrB_Index k = 0;
  REQUIRE(GrB_Matrix_nvals(&k, a) == GrB_SUCCESS);
  std::vector<GrB_Index> i(k), j(k);
  std::vector<W> x(k);
  REQUIRE(gbm<W>::tuples(i.data(), j.data(), x.data(), &k, a) == GrB_SUCCESS);
  std::vector<double> out;
  for (GrB_Index e = 0; e < k; ++e)
    out.insert(out.end(), {double(i[e]), double(j[e]), double(x[e])});
  return out;
}

GrB_Vector sources_vector(const std::vector<vertex>& s) {
  GrB_Vector v = nullptr;
  REQUIRE(GrB_Vector_new(&v, GrB_UINT32, s.size()) == GrB_SUCCESS);
  for (std::size_t i = 0; i < s.size(); ++i)
    REQUIRE(GrB_Vector_setElement_UINT32(v, s[i], i) == GrB_SUCCESS);
  return v;
}

GrB_Scalar fp64_scalar(double x) {
  GrB_Scalar s = nullptr;
  REQUIRE(GrB_Scalar_new(&s, GrB_FP64) == GrB_SUCCESS);
  REQUIRE(GrB_Scalar_setElement_FP64(s, x) == GrB_SUCCESS);
  return s;
}

// D against the truncated reference: present exactly where reachable within the cutoff.
template <class W>
void check_d(const csr<W>& g, const std::vector<vertex>& sources, double cutoff, GrB_Matrix d) {
  GrB_Index rows = 0, cols = 0, k = 0;
  REQUIRE(GrB_Matrix_nrows(&rows, d) == GrB_SUCCESS);
  REQUIRE(GrB_Matrix_ncols(&cols, d) == GrB_SUCCESS);
  CHECK(rows == sources.size());
  CHECK(cols == g.n);
  REQUIRE(GrB_Matrix_nvals(&k, d) == GrB_SUCCESS);
  std::vector<GrB_Index> i(k), j(k);
  std::vector<W> x(k);
  REQUIRE(gbm<W>::tuples(i.data(), j.data(), x.data(), &k, d) == GrB_SUCCESS);
  std::vector<std::vector<W>> got(sources.size(), std::vector<W>(g.n, infinity<W>()));
  for (GrB_Index e = 0; e < k; ++e) got[i[e]][j[e]] = x[e];
  for (std::size_t r = 0; r < sources.size(); ++r) {
    CAPTURE(r);
    result<W> row;
    row.distances = got[r];
    CHECK(verify(g, sources[r], testing::truncated_reference(g, sources[r], cutoff), row) == "");
  }
}

template <class W>
void check_type(std::size_t count, std::uint64_t seed) {
  for (const auto& c : testing::test_graph_cases(count, seed)) {
    CAPTURE(c.name());
    const csr<W> g = c.graph<W>();
    if (g.n == 0) continue;
    guard in;
    in.a = matrix_of(g);
    const std::vector<vertex> sources = testing::some_sources(g.n, c.seed, 4);
    in.v = sources_vector(sources);
    const double cut = testing::cutoff_between(dijkstra(g, sources[0], false).distances, 0.4);
    const std::vector<double> before = entries_of<W>(in.a);
    for (bool with_cutoff : {false, true}) {
      guard out;
      if (with_cutoff) out.s = fp64_scalar(cut);
      char msg[TROPIC_MSG_LEN];
      const int info = tropic_sssp_multi(&out.a, in.a, in.v, nullptr, out.s, msg);
      INFO("message: " << msg);
      REQUIRE(info == GrB_SUCCESS);
      check_d(g, sources, with_cutoff ? cut : std::numeric_limits<double>::infinity(), out.a);
      // Through the options' cutoff (struct_size set) and dijkstra.
      tropic_options o = {};
      o.struct_size = sizeof o;
      o.algorithm = TROPIC_DIJKSTRA;
      o.cutoff = with_cutoff ? cut : INFINITY;
      guard via;
      tropic_stats st = {};
      st.struct_size = sizeof st;
      REQUIRE(tropic_sssp_multi_ext(&via.a, &st, in.a, in.v, nullptr, nullptr, &o, msg) ==
              GrB_SUCCESS);
      check_d(g, sources, with_cutoff ? cut : std::numeric_limits<double>::infinity(), via.a);
      CHECK(std::string(st.algorithm) == "dijkstra");
    }
    CHECK(entries_of<W>(in.a) == before);
  }
}

// Expects `want`, *D NULL, a message, and A as it was.
int expect_error(int want, GrB_Matrix a, GrB_Vector s, GrB_Scalar delta, GrB_Scalar cutoff,
                 const char* part, const tropic_options* opts = nullptr) {
  const std::vector<double> before = entries_of<double>(a);
  GrB_Matrix d = reinterpret_cast<GrB_Matrix>(0x1);
  char msg[TROPIC_MSG_LEN];
  const int info = tropic_sssp_multi_ext(&d, nullptr, a, s, delta, cutoff, opts, msg);
  INFO("message: " << msg);
  CHECK(info == want);
  CHECK(d == nullptr);
  CHECK(std::string(msg).find(part) != std::string::npos);
  CHECK(entries_of<double>(a) == before);
  return info;
}

}  // namespace

TEST_SUITE("c_api") {
  TEST_CASE("tropic_sssp_multi: six types, with and without a cutoff, against Dijkstra") {
    check_type<std::uint32_t>(16, 31);
    check_type<std::int32_t>(10, 131);
    check_type<std::uint64_t>(10, 231);
    check_type<std::int64_t>(10, 331);
    check_type<float>(16, 431);
    check_type<double>(10, 531);
  }

  TEST_CASE("tropic_sssp_multi: argument errors leave A intact and say what is wrong") {
    csr<double> g;
    g.n = 3;
    g.row_offsets = {0, 1, 2, 2};
    g.columns = {1, 2};
    g.weights = {1.5, 2};
    guard in;
    in.a = matrix_of(g);
    in.v = sources_vector({0, 2});
    char msg[TROPIC_MSG_LEN];
    CHECK(tropic_sssp_multi(nullptr, in.a, in.v, nullptr, nullptr, msg) == GrB_NULL_POINTER);
    GrB_Matrix d = nullptr;
    CHECK(tropic_sssp_multi(&d, nullptr, in.v, nullptr, nullptr, msg) == GrB_NULL_POINTER);
    CHECK(tropic_sssp_multi(&d, in.a, nullptr, nullptr, nullptr, msg) == GrB_NULL_POINTER);
    CHECK(d == nullptr);
    {
      guard bad;
      bad.v = sources_vector({0, 7});
      expect_error(GrB_INVALID_INDEX, in.a, bad.v, nullptr, nullptr, "source 7");
    }
    {
      guard holes;  // entry 1 absent
      REQUIRE(GrB_Vector_new(&holes.v, GrB_INT64, 3) == GrB_SUCCESS);
      REQUIRE(GrB_Vector_setElement_INT64(holes.v, 0, 0) == GrB_SUCCESS);
      REQUIRE(GrB_Vector_setElement_INT64(holes.v, 2, 2) == GrB_SUCCESS);
      expect_error(GrB_INVALID_VALUE, in.a, holes.v, nullptr, nullptr, "absent");
    }
    {
      guard frac;
      REQUIRE(GrB_Vector_new(&frac.v, GrB_FP64, 1) == GrB_SUCCESS);
      REQUIRE(GrB_Vector_setElement_FP64(frac.v, 1.5, 0) == GrB_SUCCESS);
      expect_error(GrB_INVALID_VALUE, in.a, frac.v, nullptr, nullptr, "not a vertex id");
    }
    for (double bad : {-1.0, std::nan("")}) {
      guard c;
      c.s = fp64_scalar(bad);
      expect_error(GrB_INVALID_VALUE, in.a, in.v, nullptr, c.s, "cutoff");
      guard dl;
      dl.s = fp64_scalar(bad);
      expect_error(GrB_INVALID_VALUE, in.a, in.v, dl.s, nullptr, "delta");
    }
    tropic_options short_size = {};
    short_size.struct_size = 8;
    expect_error(GrB_INVALID_VALUE, in.a, in.v, nullptr, nullptr, "struct_size", &short_size);
    // An empty sources vector: a 0 x n D.
    guard none, out;
    REQUIRE(GrB_Vector_new(&none.v, GrB_UINT32, 0) == GrB_SUCCESS);
    REQUIRE(tropic_sssp_multi(&out.a, in.a, none.v, nullptr, nullptr, msg) == GrB_SUCCESS);
    GrB_Index rows = 1;
    REQUIRE(GrB_Matrix_nrows(&rows, out.a) == GrB_SUCCESS);
    CHECK(rows == 0);
  }

  TEST_CASE("tropic_options: struct_size 0 ignores cutoff, and once set the cutoff holds") {
    csr<double> g;  // 0 -> 1 (1.5) -> 2 (2)
    g.n = 3;
    g.row_offsets = {0, 1, 2, 2};
    g.columns = {1, 2};
    g.weights = {1.5, 2};
    guard in;
    in.a = matrix_of(g);
    char msg[TROPIC_MSG_LEN];
    tropic_options zeroed = {};  // what a program written before struct_size holds
    zeroed.algorithm = TROPIC_GRAPHBLAS_CPU;
    GrB_Vector d = nullptr;
    REQUIRE(tropic_sssp_ext(&d, nullptr, nullptr, in.a, 0, nullptr, &zeroed, msg) == GrB_SUCCESS);
    GrB_Index reached = 0;
    double far = 0;
    REQUIRE(GrB_Vector_extractElement_FP64(&far, d, 2) == GrB_SUCCESS);
    CHECK(far == 3.5);  // cutoff 0 in the zeroed struct was not read
    GrB_Vector_free(&d);
    tropic_options sized = zeroed;
    sized.struct_size = sizeof sized;
    sized.cutoff = 2;
    REQUIRE(tropic_sssp_ext(&d, nullptr, nullptr, in.a, 0, nullptr, &sized, msg) == GrB_SUCCESS);
    REQUIRE(GrB_Vector_extractElement_FP64(&far, d, 2) == GrB_SUCCESS);
    CHECK(std::isinf(far));  // tropic_sssp's dense output: beyond the cutoff is infinity
    REQUIRE(GrB_Vector_nvals(&reached, d) == GrB_SUCCESS);
    CHECK(reached == 3);
    GrB_Vector_free(&d);
    sized.cutoff = -1;
    CHECK(tropic_sssp_ext(&d, nullptr, nullptr, in.a, 0, nullptr, &sized, msg) ==
          GrB_INVALID_VALUE);
    CHECK(d == nullptr);
  }
}
