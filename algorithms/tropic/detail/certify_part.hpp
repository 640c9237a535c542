// Internal: one part's certificate, certify_rows over the rows of a device matrix, on its GPU or on
// the host; certify over a distributed matrix (algorithms/certify_distributed.cu) runs one per
// part, and tests run several parts on one GPU. The current device must be the part's.
#pragma once

#include <optional>

#include "tropic/device_matrix.hpp"
#include "tropic/sssp.hpp"

namespace tropic::detail {

// certify_rows(part's rows, source, r, rows), checked on the part's device against r uploaded
// there; the same verdict and text (its marks are left empty when it reports a violation:
// certify_combine reads none then). nullopt when r's distances, parents and the n bytes of marks
// do not fit the device's free memory.
template <class W>
std::optional<certificate_part> certify_part_on_device(const device_matrix<W>& part, vertex source,
                                                       const result<W>& r, row_range rows);

// The same with the part's rows copied to the host and checked there by certify_rows.
template <class W>
certificate_part certify_part_on_host(const device_matrix<W>& part, vertex source,
                                      const result<W>& r, row_range rows);

}  // namespace tropic::detail
