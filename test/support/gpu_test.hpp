// GPU test cases skip, with the reason printed, where no CUDA device is usable.
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
