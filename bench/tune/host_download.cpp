// Where a large device-to-host download's time goes (issue 33: all pairs of 10,000 vertices are
// an 800 MB answer): the DMA into pinned memory, into pageable memory already touched and fresh,
// tropic's staged copy_to_host into each, and the host side alone (first-touch fills, memcpy by
// one thread and by all). Median of `runs` wall times after a warm-up; every copy checked.
//   build/bench/tune/tune_host_download [MB=800] [runs=5]
#include <cuda_runtime.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "tropic/detail/openmp.hpp"
#include "tropic/device_memory.hpp"

using namespace tropic;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

char* fresh(std::size_t bytes, bool huge) {
  constexpr std::size_t align = std::size_t(2) << 20;
  void* p = nullptr;
  if (posix_memalign(&p, align, (bytes + align - 1) / align * align) != 0) std::abort();
  if (huge) madvise(p, (bytes + align - 1) / align * align, MADV_HUGEPAGE);
  return static_cast<char*>(p);
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t mb = 800;
  int runs = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("MB=", 0) == 0) mb = std::stoul(a.substr(3));
    if (a.rfind("runs=", 0) == 0) runs = std::stoi(a.substr(5));
  }
  const std::size_t bytes = mb << 20;
  std::printf("download of %zu MB, %d host threads, median of %d\n", mb, detail::worker_threads(),
              runs);
  cuda_stream stream;
  device_buffer<char> dev(bytes, stream);
  std::vector<char> pattern(bytes);
  for (std::size_t i = 0; i < bytes; ++i) pattern[i] = char(i * 2654435761u >> 13);
  dev.upload(pattern.data(), bytes);
  stream.synchronize();
  char* pinned = nullptr;
  TROPIC_CUDA_CHECK(cudaMallocHost(&pinned, bytes));
  std::vector<char> touched(bytes, 1);

  auto row = [&](const char* name, bool check, const std::function<char*()>& prepare,
                 const std::function<void(char*)>& run, bool release) {
    std::vector<double> t;
    bool ok = true;
    for (int r = 0; r <= runs; ++r) {
      char* dst = prepare();
      const auto t0 = std::chrono::steady_clock::now();
      run(dst);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (r) t.push_back(ms);
      if (check) ok = ok && std::memcmp(dst, pattern.data(), bytes) == 0;
      if (release) std::free(dst);
    }
    const double m = median(t);
    std::printf("  %-58s %9.2f ms %7.2f GB/s%s\n", name, m, double(bytes) / m / 1e6,
                check ? (ok ? "  (equal)" : "  (WRONG)") : "");
    std::fflush(stdout);
  };
  auto dma = [&](char* dst) {
    TROPIC_CUDA_CHECK(cudaMemcpyAsync(dst, dev.data(), bytes, cudaMemcpyDeviceToHost, stream));
    stream.synchronize();
  };
  auto staged = [&](char* dst) { copy_to_host(dst, dev.data(), bytes, stream); };
  auto keep = [&](char* p) { return [p] { return p; }; };
  auto fresh_small = [&] { return fresh(bytes, false); };
  auto fresh_huge = [&] { return fresh(bytes, true); };

  row("cudaMemcpy D2H into pinned (cudaMallocHost)", true, keep(pinned), dma, false);
  row("cudaMemcpy D2H into pageable, touched", true, keep(touched.data()), dma, false);
  row("cudaMemcpy D2H into pageable, fresh", true, fresh_small, dma, true);
  row("copy_to_host into pageable, touched", true, keep(touched.data()), staged, false);
  row("copy_to_host into pageable, fresh", true, fresh_small, staged, true);
  row("copy_to_host into pageable, fresh, MADV_HUGEPAGE", true, fresh_huge, staged, true);
  row("cudaHostRegister fresh, DMA, unregister", true, fresh_small, [&](char* d) {
        TROPIC_CUDA_CHECK(cudaHostRegister(d, bytes, cudaHostRegisterDefault));
        dma(d);
        TROPIC_CUDA_CHECK(cudaHostUnregister(d));
      }, true);
  row("host: fill fresh memory, one thread", false, fresh_small,
      [&](char* d) { std::memset(d, 1, bytes); }, true);
  row("host: fill fresh memory, all threads", false, fresh_small, [&](char* d) {
        const auto spans = std::int64_t(bytes >> 20);
        TROPIC_OMP(parallel for schedule(static))
        for (std::int64_t i = 0; i < spans; ++i) std::memset(d + (i << 20), 1, std::size_t(1) << 20);
      }, true);
  row("host: fill fresh MADV_HUGEPAGE memory, all threads", false, fresh_huge, [&](char* d) {
        const auto spans = std::int64_t(bytes >> 20);
        TROPIC_OMP(parallel for schedule(static))
        for (std::int64_t i = 0; i < spans; ++i) std::memset(d + (i << 20), 1, std::size_t(1) << 20);
      }, true);
  row("host: memcpy pinned -> touched, one thread", true, keep(touched.data()),
      [&](char* d) { std::memcpy(d, pinned, bytes); }, false);
  row("host: memcpy pinned -> touched, all threads", true, keep(touched.data()), [&](char* d) {
        const auto spans = std::int64_t(bytes >> 20);
        TROPIC_OMP(parallel for schedule(static))
        for (std::int64_t i = 0; i < spans; ++i)
          std::memcpy(d + (i << 20), pinned + (i << 20), std::size_t(1) << 20);
      }, false);
  cudaFreeHost(pinned);
  return 0;
}
