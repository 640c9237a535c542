// Test hooks into tropic's device memory pool (lib/device_memory.cu; GPU builds): not installed.
#pragma once

#include <cstdint>

namespace tropic::detail {

// Issue 39, allocation failure injection. Every pool_allocate call is counted; after
// fail_allocation_after(n) with n >= 1, the n-th call from then on fails as the device's own
// out-of-memory does (error_code::out_of_memory naming the bytes), once; 0 disarms the hook. The
// count and the hook are process-wide: a test that uses them runs its solves on one thread.
void fail_allocation_after(std::uint64_t n) noexcept;
std::uint64_t allocation_count() noexcept;
// How many allocations the hook has failed since the process started.
std::uint64_t injected_allocation_failures() noexcept;

}  // namespace tropic::detail
