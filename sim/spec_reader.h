// Reading a host spec (hwsim-spec/1 YAML). Every mistake is located: the file,
// line and column, and what was expected there.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "sim/spec.h"

namespace hwaccel::sim {

struct SpecError {
  std::string file;
  int line = 0;
  int column = 0;
  std::string message;
  std::string to_string() const;  // "spec.yaml:4:9: accelerators[0].sku: ..."
};

// The largest spec text read at all (a spec is a few dozen lines).
inline constexpr std::size_t kMaxSpecBytes = std::size_t{1} << 20;

// Devices of one accelerators[] entry ("h100-sxm x8" or count: 8) and of the
// whole host. The synthesizer gives each PCI device a bus of its own in domain
// 0000 (239 of its 256 buses are free for them), so a host past 128 would need
// bus ids that do not exist; the biggest real hosts have 16.
inline constexpr int kMaxAcceleratorCount = 64;
inline constexpr int kMaxAcceleratorsPerHost = 128;

std::optional<SpecError> parse_spec(std::string_view text, std::string_view file_name,
                                    HostSpec& out);

// "2112948142 kB", "80 GiB", "512M", "1.5T", "123" (bytes). Binary units. nullopt if not a size.
std::optional<std::uint64_t> parse_spec_size(std::string_view text);

}  // namespace hwaccel::sim
