// copy_to_host (tropic/device_memory.hpp): every byte of every size, to any alignment, into
// memory no one has touched yet (fresh anonymous pages, as a numpy result is), and from inside a
// caller's parallel region, where the copy's team is smaller than it asks for. GPU builds only;
// plain C++ with OpenMP, so the team sizes are real.
#if defined(TROPIC_HAVE_CUDA)
#include <doctest/doctest.h>
#include <sys/mman.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "gpu_test.hpp"
#include "random_graphs.hpp"
#include "tropic/device_memory.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

using namespace tropic;

namespace {

constexpr std::size_t piece = std::size_t(4) << 20;  // host_copy.cpp's piece

// Fresh pages: an anonymous mapping of its own, unmapped when done.
class fresh_memory {
 public:
  explicit fresh_memory(std::size_t bytes) : bytes_(bytes + 1) {
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(p != MAP_FAILED);
    data_ = static_cast<unsigned char*>(p);
  }
  fresh_memory(const fresh_memory&) = delete;
  fresh_memory& operator=(const fresh_memory&) = delete;
  ~fresh_memory() { munmap(data_, bytes_); }
  unsigned char* data() const noexcept { return data_; }

 private:
  std::size_t bytes_;
  unsigned char* data_ = nullptr;
};

// bytes of random data on the device, and the same on the host.
struct source_bytes {
  std::vector<unsigned char> host;
  device_buffer<unsigned char> device;
  source_bytes(std::size_t bytes, cudaStream_t stream)
      : host(bytes), device(bytes + 1, stream) {
    testing::test_rng rng(bytes + 7);
    for (auto& b : host) b = static_cast<unsigned char>(rng.below(256));
    device.upload(host.data(), bytes);
    TROPIC_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
};

// The copy into fresh memory at `offset`: the bytes equal, the one after them untouched.
bool copied(const source_bytes& s, std::size_t offset, cudaStream_t stream) {
  const std::size_t bytes = s.host.size();
  fresh_memory out(bytes + offset);
  out.data()[bytes + offset] = 0xA5;
  copy_to_host(out.data() + offset, s.device.data(), bytes, stream);
  return std::memcmp(out.data() + offset, s.host.data(), bytes) == 0 &&
         out.data()[bytes + offset] == 0xA5;
}

}  // namespace

TEST_SUITE("host_copy") {
  TEST_CASE("copy_to_host: every byte of every size, to any alignment, into fresh pages") {
    TROPIC_REQUIRE_GPU();
    cuda_stream stream;
    for (std::size_t bytes : {std::size_t(0), std::size_t(1), std::size_t(4097), piece - 1, piece,
                              piece + 1, 2 * piece, 3 * piece + 12345, 40 * piece + 7}) {
      CAPTURE(bytes);
      const source_bytes s(bytes, stream);
      for (std::size_t offset : {0, 3}) {
        CAPTURE(offset);
        CHECK(copied(s, offset, stream));
      }
    }
  }

  TEST_CASE("copy_to_host: from a caller's parallel region, and with fewer threads") {
    TROPIC_REQUIRE_GPU();
    // Nested in a region (nesting off: a team of one) each thread's copy must still be whole.
    const std::size_t bytes = 37 * piece + 11;
    int wrong = 0;
#if defined(_OPENMP)
#pragma omp parallel num_threads(2) reduction(+ : wrong)
#endif
    {
      cuda_stream stream;
      const source_bytes s(bytes, stream);
      wrong += !copied(s, 0, stream);
    }
    CHECK(wrong == 0);
#if defined(_OPENMP)
    const int threads = omp_get_max_threads();
    for (int t : {1, 2, 3}) {
      CAPTURE(t);
      omp_set_num_threads(t);
      cuda_stream stream;
      const source_bytes s(bytes, stream);
      CHECK(copied(s, 1, stream));
    }
    omp_set_num_threads(threads);
#endif
  }
}
#endif  // TROPIC_HAVE_CUDA
