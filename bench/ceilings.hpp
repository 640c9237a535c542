// The ceilings: what one pass over a graph's arcs costs on this machine, measured in the same run
// as the algorithms so that every SSSP time can be read against them (DESIGN.md, "What fast is
// measured against"). GPU builds define measure_ceilings() in bench/ceilings.cu (device-to-device
// copy bandwidth, cuSPARSE plus-times SpMV on the graph's CSR); CPU builds in
// bench/ceilings_cpu.cpp, where there is no device to measure and the list is empty.
#pragma once

#include <string>
#include <vector>

#include "tropic/csr.hpp"

namespace tropic::bench {

struct ceiling_row {
  std::string name;             // e.g. "device_copy", "cusparse_spmv"
  double milliseconds = 0;      // median time of one pass
  double min_milliseconds = 0;  // fastest pass
  int runs = 0;                 // timed passes behind the median
  double bytes = 0;             // bytes one pass reads + writes (GB/s column); 0 = not reported
  double arcs = 0;              // arcs one pass touches (GTEPS column); 0 = not reported
  std::string note;             // how it was measured (library, sizes)
};

// One graph's ceilings; empty when nothing can be measured (no CUDA, no device).
std::vector<ceiling_row> measure_ceilings(const csr<float>& g);
// cuSPARSE's fp64 SpMV and tropic's min_plus<double> mxv on g: the bench's double-weight rows.
std::vector<ceiling_row> measure_double_spmv_ceilings(const csr<double>& g);

}  // namespace tropic::bench
