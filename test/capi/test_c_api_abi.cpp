// What lets a program built against one tropic run with another: the version the library reports
// (tropic_version, tropic::version) against the header's macros, and tropic_stats' struct_size,
// which bounds what the library writes into the caller's struct.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tropic/detail/graphblas_session.hpp"
#include "tropic/tropic.h"
#include "tropic/version.h"

namespace {

// The path 0 -> 1 -> 2 with weights 2 and 3, as FP64.
GrB_Matrix path_matrix() {
  tropic::detail::ensure_graphblas();
  GrB_Matrix a = nullptr;
  REQUIRE(GrB_Matrix_new(&a, GrB_FP64, 3, 3) == GrB_SUCCESS);
  REQUIRE(GrB_Matrix_setElement_FP64(a, 2.0, 0, 1) == GrB_SUCCESS);
  REQUIRE(GrB_Matrix_setElement_FP64(a, 3.0, 1, 2) == GrB_SUCCESS);
  REQUIRE(GrB_Matrix_wait(a, GrB_MATERIALIZE) == GrB_SUCCESS);
  return a;
}

}  // namespace

TEST_SUITE("c_api") {
  TEST_CASE("tropic_version and tropic::version report the version the headers carry") {
    int major_version = -1, minor_version = -1, patch_version = -1;
    tropic_version(&major_version, &minor_version, &patch_version);
    CHECK(major_version == TROPIC_VERSION_MAJOR);
    CHECK(minor_version == TROPIC_VERSION_MINOR);
    CHECK(patch_version == TROPIC_VERSION_PATCH);
    tropic_version(nullptr, nullptr, nullptr);  // any pointer may be NULL
    const tropic::version_info v = tropic::version();
    CHECK(v.major_version == TROPIC_VERSION_MAJOR);
    CHECK(v.minor_version == TROPIC_VERSION_MINOR);
    CHECK(v.patch_version == TROPIC_VERSION_PATCH);
    CHECK(std::string(TROPIC_VERSION_STRING) == std::to_string(TROPIC_VERSION_MAJOR) + "." +
                                                    std::to_string(TROPIC_VERSION_MINOR) + "." +
                                                    std::to_string(TROPIC_VERSION_PATCH));
    CHECK(TROPIC_VERSION ==
          TROPIC_VERSION_NUMBER(TROPIC_VERSION_MAJOR, TROPIC_VERSION_MINOR, TROPIC_VERSION_PATCH));
  }

  TEST_CASE("tropic_stats: struct_size comes first and bounds what the library writes") {
    CHECK(offsetof(tropic_stats, struct_size) == 0);
    GrB_Matrix a = path_matrix();
    tropic_options cpu = {};
    cpu.algorithm = TROPIC_DIJKSTRA;
    char msg[TROPIC_MSG_LEN];

    // A newer program's longer struct: the library fills the fields it knows, leaves the rest
    // (here a guard pattern) alone, and keeps struct_size as the caller set it.
    constexpr std::size_t extra = 64;
    std::vector<unsigned char> buffer(sizeof(tropic_stats) + extra, 0xa5);
    tropic_stats* st = reinterpret_cast<tropic_stats*>(buffer.data());
    st->struct_size = buffer.size();
    GrB_Vector d = nullptr;
    REQUIRE(tropic_sssp_ext(&d, nullptr, st, a, 0, nullptr, &cpu, msg) == GrB_SUCCESS);
    GrB_Vector_free(&d);
    CHECK(st->struct_size == buffer.size());
    CHECK(std::string(st->algorithm) == "dijkstra");
    CHECK(st->arcs_relaxed == 2);
    CHECK(st->milliseconds >= 0);
    for (std::size_t i = sizeof(tropic_stats); i < buffer.size(); ++i) {
      CAPTURE(i);
      CHECK(buffer[i] == 0xa5);
    }

    // A struct_size the caller forgot (0) or too small for any tropic_stats: a clear error, no
    // write, no output, A untouched.
    for (const std::size_t size : {std::size_t{0}, sizeof(std::size_t), sizeof(tropic_stats) - 1}) {
      CAPTURE(size);
      std::vector<unsigned char> small(sizeof(tropic_stats), 0x5a);
      tropic_stats* s = reinterpret_cast<tropic_stats*>(small.data());
      s->struct_size = size;
      d = reinterpret_cast<GrB_Vector>(0x1);
      CHECK(tropic_sssp_ext(&d, nullptr, s, a, 0, nullptr, &cpu, msg) == GrB_INVALID_VALUE);
      CHECK(d == nullptr);
      CHECK(std::string(msg).find("struct_size") != std::string::npos);
      CHECK(s->struct_size == size);
      for (std::size_t i = sizeof(std::size_t); i < small.size(); ++i) CHECK(small[i] == 0x5a);
    }
    GrB_Index nvals = 0;
    CHECK(GrB_Matrix_nvals(&nvals, a) == GrB_SUCCESS);
    CHECK(nvals == 2);
    GrB_Matrix_free(&a);
  }
}
