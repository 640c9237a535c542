// GPU test cases skip, with the reason printed, where no CUDA device is usable. The text is
// matched by test/CMakeLists.txt (SKIP_REGULAR_EXPRESSION) so ctest counts the case as skipped:
// call it first in a case, before any check runs, or a failure before it would read as a skip.
#pragma once

#include <doctest/doctest.h>

#include "tropic/sssp.hpp"

#define TROPIC_REQUIRE_GPU()                                                            \
  do {                                                                                  \
    if (!::tropic::gpu_available()) {                                                   \
      MESSAGE("skipped: no CUDA device is usable on this machine (GPU test)");          \
      return;                                                                           \
    }                                                                                   \
  } while (0)
