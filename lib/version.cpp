// tropic::version(): the library's version, fixed when the library is built (tropic/version.h is
// generated from project(VERSION)).
#include "tropic/version.h"

namespace tropic {

version_info version() noexcept {
  return {TROPIC_VERSION_MAJOR, TROPIC_VERSION_MINOR, TROPIC_VERSION_PATCH};
}

}  // namespace tropic
