// Every GPU algorithm under device allocation failure and under concurrent host threads (issue
// 39): a failure injected at each allocation of a solve, through tropic's memory pool
// (tropic/detail/allocation_hooks.hpp), gives out_of_memory naming the bytes, leaks nothing, and
// leaves the device_matrix usable; eight host threads solving at once, on one shared matrix and
// on one matrix each, get every answer right.
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gpu_test.hpp"
#include "reference_graphs.hpp"
#include "tropic/detail/allocation_hooks.hpp"
#include "tropic/device_matrix.hpp"
#include "tropic/device_memory.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/io.hpp"
#include "tropic/sssp.hpp"

using namespace tropic;

namespace {

struct gpu_config {
  algorithm algo;
  loop_control loop;
  const char* name;
};

// Every GPU algorithm, delta-stepping and Bellman-Ford with each loop control (the persistent
// kernel allocates differently from the host loop).
constexpr gpu_config every_gpu_config[] = {
    {algorithm::automatic, loop_control::automatic, "auto"},
    {algorithm::delta_stepping, loop_control::host, "delta_stepping/host"},
    {algorithm::delta_stepping, loop_control::device, "delta_stepping/device"},
    {algorithm::bellman_ford, loop_control::host, "bellman_ford/host"},
    {algorithm::bellman_ford, loop_control::device, "bellman_ford/device"},
    {algorithm::adds, loop_control::automatic, "adds"},
    {algorithm::near_far, loop_control::automatic, "near_far"},
    {algorithm::workfront, loop_control::automatic, "workfront"},
    {algorithm::rdbs, loop_control::automatic, "rdbs"},
    {algorithm::da2cf, loop_control::automatic, "da2cf"},
    {algorithm::edge_wise, loop_control::automatic, "edge_wise"},
};

options options_for(const gpu_config& c) {
  options o;
  o.algorithm = c.algo;
  o.loop = c.loop;
  o.parents = true;
  return o;
}

// Bytes in use from tropic's pool once every queued free has run.
std::uint64_t pool_bytes_in_use() {
  TROPIC_CUDA_CHECK(cudaDeviceSynchronize());
  std::uint64_t used = 0;
  TROPIC_CUDA_CHECK(cudaMemPoolGetAttribute(memory_pool(), cudaMemPoolAttrUsedMemCurrent, &used));
  return used;
}

// Disarms the hook whatever a check does.
struct hook_guard {
  ~hook_guard() { detail::fail_allocation_after(0); }
};

}  // namespace

TEST_CASE("device allocation failure injected at every allocation of every GPU algorithm") {
  TROPIC_REQUIRE_GPU();
  // Small enough that every allocation of every algorithm is tried in seconds, large enough for
  // several buckets, push and pull steps.
  const csr<std::uint32_t> g = generate_kronecker<std::uint32_t>(9, 8, 39);
  const vertex source = 1;
  const result<std::uint32_t> want = dijkstra(g, source, false);
  const device_matrix<std::uint32_t> a(g);
  hook_guard guard;
  for (const gpu_config& c : every_gpu_config) {
    CAPTURE(c.name);
    const options o = options_for(c);
    // A first solve builds what the matrix keeps on demand (the arc->source array), so that the
    // pool's use after each later solve must come back to the same baseline.
    CHECK(verify(g, source, want.distances, sssp(a, source, o)) == "");
    const std::uint64_t baseline = pool_bytes_in_use();
    const std::uint64_t before = detail::allocation_count();
    CHECK(verify(g, source, want.distances, sssp(a, source, o)) == "");
    const std::uint64_t count = detail::allocation_count() - before;
    MESSAGE(c.name << ": " << count << " device allocations per solve");
    REQUIRE(count >= 1);  // every GPU solve allocates its distance vector at least
    CHECK(pool_bytes_in_use() == baseline);
    int errors = 0, recovered = 0;
    for (std::uint64_t n = 1; n <= count; ++n) {
      CAPTURE(n);
      const std::uint64_t injected = detail::injected_allocation_failures();
      detail::fail_allocation_after(n);
      try {
        const result<std::uint32_t> got = sssp(a, source, o);
        // An algorithm may catch out_of_memory and take a path that needs less memory: then the
        // answer must be right.
        CHECK(verify(g, source, want.distances, got) == "");
        ++recovered;
      } catch (const error& e) {
        ++errors;
        const std::string what = e.what();
        CAPTURE(what);
        CHECK(e.code() == error_code::out_of_memory);
        CHECK(what.find(" bytes") != std::string::npos);
      }
      detail::fail_allocation_after(0);
      const bool fired = detail::injected_allocation_failures() == injected + 1;
      // The allocation count of a solve is the same each time on one graph and source, so the
      // n-th allocation exists and the hook fired; an exception without it would be a real one.
      CHECK(fired);
      CHECK(pool_bytes_in_use() == baseline);  // nothing leaked
      // The same matrix solves right after the failure.
      CHECK(verify(g, source, want.distances, sssp(a, source, o)) == "");
    }
    MESSAGE(c.name << ": " << errors << " out_of_memory errors, " << recovered
                   << " solves that recovered from the failed allocation");
    CHECK(errors + recovered == int(count));
  }
}

TEST_CASE("device allocation failure while uploading a device_matrix leaks nothing") {
  TROPIC_REQUIRE_GPU();
  const csr<std::uint32_t> g = generate_kronecker<std::uint32_t>(9, 8, 40);
  const result<std::uint32_t> want = dijkstra(g, 0, false);
  hook_guard guard;
  const std::uint64_t baseline = pool_bytes_in_use();
  const std::uint64_t before = detail::allocation_count();
  { const device_matrix<std::uint32_t> probe(g); }
  const std::uint64_t count = detail::allocation_count() - before;
  REQUIRE(count >= 1);
  for (std::uint64_t n = 1; n <= count; ++n) {
    CAPTURE(n);
    detail::fail_allocation_after(n);
    try {
      const device_matrix<std::uint32_t> a(g);
      FAIL("the upload succeeded although its allocation ", n, " failed");
    } catch (const error& e) {
      CHECK(e.code() == error_code::out_of_memory);
      CHECK(std::string(e.what()).find(" bytes") != std::string::npos);
    }
    detail::fail_allocation_after(0);
    CHECK(pool_bytes_in_use() == baseline);
  }
  const device_matrix<std::uint32_t> a(g);
  options o;
  o.algorithm = algorithm::delta_stepping;
  CHECK(verify(g, 0, want.distances, sssp(a, 0, o)) == "");
}

namespace {

// The five GPU algorithms of the concurrency test: the algebraic loop, Bellman-Ford, and the
// three worklist designs.
constexpr algorithm concurrent_algorithms[] = {algorithm::delta_stepping, algorithm::bellman_ford,
                                               algorithm::adds, algorithm::near_far,
                                               algorithm::rdbs};
constexpr int host_threads = 8;
constexpr vertex sources_per_thread = 3;

// Runs every thread's solves; each thread writes its own error strings, checked after the join
// (doctest's assertions are not for other threads).
template <class Solve>
std::vector<std::string> run_threads(const csr<std::uint32_t>& g,
                                     const std::vector<std::vector<std::uint32_t>>& want,
                                     Solve solve) {
  std::vector<std::string> problems(host_threads);
  std::vector<int> right(host_threads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < host_threads; ++t)
    threads.emplace_back([&, t] {
      try {
        for (vertex k = 0; k < sources_per_thread; ++k) {
          const vertex s = vertex(t * sources_per_thread + k) % g.n;
          for (algorithm algo : concurrent_algorithms) {
            options o;
            o.algorithm = algo;
            o.parents = true;
            const std::string p = verify(g, s, want[s], solve(t, s, o));
            if (!p.empty()) {
              problems[t] += std::string(algorithm_name(algo)) + " source " + std::to_string(s) +
                             ": " + p + "\n";
            } else {
              ++right[t];
            }
          }
        }
      } catch (const std::exception& e) {
        problems[t] += std::string("exception: ") + e.what() + "\n";
      }
    });
  for (auto& th : threads) th.join();
  int total = 0;
  for (int r : right) total += r;
  MESSAGE(total << " of " << host_threads * sources_per_thread * 5 << " answers right");
  return problems;
}

}  // namespace

TEST_CASE("eight host threads solve at once on one shared device_matrix and on one each") {
  TROPIC_REQUIRE_GPU();
  const csr<std::uint32_t> g = generate_kronecker<std::uint32_t>(13, 16, 41);
  std::vector<std::vector<std::uint32_t>> want(g.n);
  for (vertex s = 0; s < vertex(host_threads * sources_per_thread) && s < g.n; ++s)
    want[s] = dijkstra(g, s, false).distances;

  SUBCASE("one shared matrix") {
    const device_matrix<std::uint32_t> shared(g);
    const auto problems =
        run_threads(g, want, [&](int, vertex s, const options& o) { return sssp(shared, s, o); });
    for (int t = 0; t < host_threads; ++t) {
      CAPTURE(t);
      CHECK(problems[t] == "");
    }
  }
  SUBCASE("one matrix per thread, uploaded by its thread") {
    std::vector<std::unique_ptr<device_matrix<std::uint32_t>>> own(host_threads);
    const auto problems = run_threads(g, want, [&](int t, vertex s, const options& o) {
      if (!own[t]) own[t] = std::make_unique<device_matrix<std::uint32_t>>(g);
      return sssp(*own[t], s, o);
    });
    for (int t = 0; t < host_threads; ++t) {
      CAPTURE(t);
      CHECK(problems[t] == "");
    }
  }
}

// Issue 36's memory budget: a solve's peak device memory at most the matrix it runs on plus 24 B
// a vertex and 6 B an arc (the bench's peak column less its graph column). Delta-stepping runs
// the GPU-driven loop from the start on all of these (the grid is deep, the others small), and
// the host loop when asked: a Kronecker graph, and a uniform graph that is directed (the matrix
// holds its transpose). The shared real graphs, when found: the New York road map has the fewest
// arcs a vertex (2.8), so the least budget, and soc-Slashdot is directed with hubs (rdbs's
// middle and large lists).
TEST_CASE("peak device memory within the matrix + 24 B a vertex + 6 B an arc") {
  TROPIC_REQUIRE_GPU();
  auto set_high = [] {
    std::uint64_t zero = 0;  // the high watermark can only be reset to zero
    TROPIC_CUDA_CHECK(cudaMemPoolSetAttribute(memory_pool(), cudaMemPoolAttrUsedMemHigh, &zero));
  };
  auto high = [] {
    TROPIC_CUDA_CHECK(cudaDeviceSynchronize());
    std::uint64_t v = 0;
    TROPIC_CUDA_CHECK(cudaMemPoolGetAttribute(memory_pool(), cudaMemPoolAttrUsedMemHigh, &v));
    return v;
  };
  auto check_peaks = [&](const csr<std::uint32_t>& g, const std::string& name) {
    const std::uint64_t before = pool_bytes_in_use();
    const device_matrix<std::uint32_t> a(g);
    const std::uint64_t with_matrix = pool_bytes_in_use();
    const std::uint64_t budget = with_matrix + 24 * std::uint64_t(g.n) + 6 * g.arcs();
    vertex source = 0;  // the longest row: a search that reaches most of the graph
    auto degree = [&](vertex v) { return g.row_offsets[v + 1] - g.row_offsets[v]; };
    for (vertex v = 0; v < g.n; ++v)
      if (degree(v) > degree(source)) source = v;
    const auto want = dijkstra(g, source, false).distances;
    for (const auto& [algo, loop] : {std::pair{algorithm::delta_stepping, loop_control::automatic},
                                     std::pair{algorithm::delta_stepping, loop_control::host},
                                     std::pair{algorithm::bellman_ford, loop_control::automatic},
                                     std::pair{algorithm::adds, loop_control::automatic},
                                     std::pair{algorithm::workfront, loop_control::automatic},
                                     std::pair{algorithm::near_far, loop_control::automatic},
                                     std::pair{algorithm::rdbs, loop_control::automatic}}) {
      options o;
      o.algorithm = algo;
      o.loop = loop;
      set_high();
      const result<std::uint32_t> r = sssp(a, source, o);
      const std::uint64_t peak = high();
      const std::string what = name + " " + algorithm_name(algo) +
                               (loop == loop_control::host ? " (host loop)" : "");
      CAPTURE(what);
      CAPTURE(with_matrix - before);
      MESSAGE(what << ": peak " << peak - with_matrix << " B beyond the matrix ("
                   << double(peak - with_matrix) / double(g.n) << " B a vertex), the budget "
                   << budget - with_matrix << " B");
      CHECK(r.distances == want);
      CHECK(peak <= budget);
      CHECK(pool_bytes_in_use() == with_matrix);
    }
  };
  for (const char* spec : {"grid:512:512", "kron:16:16", "uniform:200000:7"})
    check_peaks(generate<std::uint32_t>(spec, 7), spec);
  for (const auto& [file, unit] : {std::pair{"USA-road-d.NY.gr.gz", false},
                                   std::pair{"soc-Slashdot0902.txt.gz", true}}) {
    const std::string path = testing::find_data(file);
    if (path.empty()) {
      MESSAGE("skipping " << file << ": not in TROPIC_SHARED_DATA or TROPIC_LOCAL_DATA");
      continue;
    }
    read_options ro;
    ro.unit_weights = unit;
    check_peaks(read_graph<std::uint32_t>(path, ro), file);
  }
}
