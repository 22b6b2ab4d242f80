// Whether this build runs under AddressSanitizer (ci/sanitize). The few tests
// whose point is the size of their input (a quadratic pass, a slow reader) take
// a tenth of it there: the same code paths are checked for memory errors, and
// the release build keeps the full size for the time bound.
#pragma once

namespace hwaccel::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif
inline constexpr int kSanitizedScale = kSanitized ? 10 : 1;

}  // namespace hwaccel::testing
