// Whether this build runs under AddressSanitizer (ci/sanitize): code that skips
// work only because the process is about to exit does it anyway there, so the
// leak check sees every allocation freed; tests scale their largest inputs.
#pragma once

namespace hwaccel {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace hwaccel
