// The certificate as P row parts would run it (certify_rows on each, certify_combine once): the
// CPU and GPU certificate tests compare it with the whole check.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tropic/partition.hpp"
#include "tropic/sssp.hpp"

namespace tropic::testing {

template <class W>
std::string certify_in_parts(const csr<W>& g, vertex s, const result<W>& r, std::size_t parts) {
  std::vector<certificate_part> checked;
  for (const row_range& rows : partition_rows(g, parts))
    checked.push_back(certify_rows(g, s, r, rows));
  return certify_combine(s, r, checked);
}

}  // namespace tropic::testing
