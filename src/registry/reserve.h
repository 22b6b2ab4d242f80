// The memory reserve: how much memory must stay free on a device before it is
// offered. Default 3584 MiB; HWACCEL_RESERVE_BYTES; --reserve.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "src/registry/detection.h"
#include "src/vocabulary/byte_size.h"

namespace hwaccel {

inline constexpr std::uint64_t kDefaultReserveBytes = 3584ull << 20;
inline constexpr const char* kReserveEnv = "HWACCEL_RESERVE_BYTES";

struct Reserve {
  std::uint64_t bytes = kDefaultReserveBytes;
  std::string source = "default";  // "default" | "env" | "flag" | "saved"
};

// The reserve in force: the flag if given, else the environment, else the
// default. A malformed value is an error naming where it came from.
struct ReserveChoice {
  std::optional<Reserve> reserve;
  std::string error;  // set when the flag or the variable is malformed
};
ReserveChoice choose_reserve(const std::optional<std::string>& flag,
                             const std::optional<std::string>& env_value);

// Marks every ready device whose free memory is below the reserve unavailable
// (reserve-exceeds-free), and with it every twin of the same physical device
// that does not know its free memory. Unified-memory devices compare against
// their working-set limit when known, else what the host has available. The
// CPU is never refused: it is the last resort, not a memory pool to protect.
void apply_reserve(Detection& detection, const Reserve& reserve);

// 3758096384 -> "3584 MiB"
std::string format_mib(std::uint64_t bytes);

}  // namespace hwaccel
