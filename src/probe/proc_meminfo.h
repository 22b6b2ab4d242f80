// /proc/meminfo -> the system memory figures the probes need.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hwaccel {

struct MemInfo {
  std::optional<std::uint64_t> total_bytes;      // MemTotal
  std::optional<std::uint64_t> available_bytes;  // MemAvailable, or the estimate below
  // Kernels before 3.14 have no MemAvailable: available_bytes is then
  // MemFree + Buffers + Cached, which overstates what can be had without swapping.
  bool available_estimated = false;
};

// Values in kB become bytes. Missing or unreadable lines leave fields empty.
MemInfo parse_proc_meminfo(std::string_view text);

}  // namespace hwaccel
