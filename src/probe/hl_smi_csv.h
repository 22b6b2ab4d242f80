// hl-smi -Q <fields> -f csv: Intel Gaudi's query, in the nvidia-smi CSV dialect
// (a header "index, name, bus_id, ..., memory.total [MiB], ..." then rows
// "0, HL-325L, 0000:3b:00.0, ..., 131072 MiB, ..."). Read with the nvidia-smi
// table parser, by column name.
//
// The format: a real 8x HL-325L capture with driver 1.24.1-b336d5e (a Gaudi
// monitoring project's test fixture): "index, name, bus_id, driver_version, uuid,
// module_id, memory.total [MiB], memory.free [MiB], memory.used [MiB]".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

// The fields the probe asks for, in this order.
inline constexpr const char* kHlSmiQueryFields =
    "index,name,bus_id,memory.total,memory.free,driver_version";

struct HlSmiDevice {
  std::optional<int> index;
  std::string name;    // "HL-325L"
  std::string bus_id;  // normalised "0000:3b:00.0"; "" when unknown
  std::optional<std::uint64_t> memory_total_bytes;
  std::optional<std::uint64_t> memory_free_bytes;
  std::string driver_version;  // "1.24.1-b336d5e"; "" when unknown
};

struct HlSmiQuery {
  std::vector<std::string> columns;
  std::vector<HlSmiDevice> devices;
  std::vector<std::string> problems;  // rows skipped, cells unreadable
};

HlSmiQuery parse_hl_smi_query(std::string_view text);

}  // namespace hwaccel
