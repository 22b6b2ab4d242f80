// Whether this build runs under AddressSanitizer (ci/sanitize). The few tests
// whose point is the size of their input (a quadratic pass, a slow reader) take
// a tenth of it there: the same code paths are checked for memory errors, and
// the release build keeps the full size for the time bound.
#pragma once

#include "src/vocabulary/sanitizer.h"

namespace hwaccel::testing {

inline constexpr bool kSanitized = kAddressSanitizer;
inline constexpr int kSanitizedScale = kSanitized ? 10 : 1;

}  // namespace hwaccel::testing
