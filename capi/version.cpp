// tropic_version(): the C form of tropic::version(), the version this library was built as.
#include "tropic/tropic.h"

extern "C" void tropic_version(int* major_version, int* minor_version, int* patch_version) {
  const tropic::version_info v = tropic::version();
  if (major_version != nullptr) *major_version = v.major_version;
  if (minor_version != nullptr) *minor_version = v.minor_version;
  if (patch_version != nullptr) *patch_version = v.patch_version;
}
