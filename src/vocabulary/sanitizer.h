// Whether this build runs under AddressSanitizer (ci/sanitize): code that skips
// work only because the process is about to exit does it anyway there, so the
// leak check sees every allocation freed; tests scale their largest inputs.
#pragma once

#include <memory>

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

// For an object a command holds until it exits: left to the exit, which hands
// back all the process's memory at once, instead of freed piece by piece first
// (a filled snapshot's 16,000 entries and the tree's plan: milliseconds). Under
// AddressSanitizer it is freed here, as usual. Never for library code.
template <class T>
void free_at_exit(std::unique_ptr<T> object) {
  if constexpr (!kAddressSanitizer) (void)object.release();
}

}  // namespace hwaccel
