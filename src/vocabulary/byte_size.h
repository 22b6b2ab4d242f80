// A size as users write it in flags and environment variables (--reserve,
// HWACCEL_RESERVE_BYTES, HWSIM_TREE_CACHE_SIZE, hwsim mutate's sizes).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hwaccel {

// "4G", "512M", "1024K", "1T", "3584MiB", "1.5G", "123" (bytes). Units are binary
// (K = 1024). nullopt for anything else: empty, negative, unknown unit, overflow.
std::optional<std::uint64_t> parse_size(std::string_view text);

}  // namespace hwaccel
