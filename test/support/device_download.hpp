// A device array's elements in a host vector, for the GPU suites' checks.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>
#include <vector>

#include "tropic/device_memory.hpp"

namespace tropic::testing {

// count elements from `device`, after the work queued on `stream` (the legacy default stream,
// which waits for every blocking stream, when none is given); copy_to_host throws on an error.
template <class T>
std::vector<std::remove_const_t<T>> download(const T* device, std::size_t count,
                                             cudaStream_t stream = nullptr) {
  std::vector<std::remove_const_t<T>> host(count);
  if (count) copy_to_host(host.data(), device, count * sizeof(T), stream);
  return host;
}

}  // namespace tropic::testing
