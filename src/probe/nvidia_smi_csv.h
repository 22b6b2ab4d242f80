// nvidia-smi --query-gpu=... --format=csv: a header row, then one row per GPU,
// cells separated by ", ". Columns are found by header name, never by position,
// because old drivers drop fields and new ones add them.
//
// nvidia-smi does not quote cells. No GPU name in practice contains a comma; a
// row with a comma inside a cell would have too many cells and is skipped with
// a note rather than misread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct NvidiaSmiTable {
  std::vector<std::string> columns;            // "memory.total" from "memory.total [MiB]"
  std::vector<std::string> units;              // "MiB" from "memory.total [MiB]"; "" when none
  std::vector<std::vector<std::string>> rows;  // trimmed cells, columns.size() of each
  std::vector<std::string> problems;           // rows skipped and why, one line each

  std::optional<std::size_t> column(std::string_view name) const;
};

NvidiaSmiTable parse_nvidia_smi_csv(std::string_view text);

// "[N/A]", "N/A", "[Not Supported]", "Not Supported", "[Unknown Error]",
// "[Requested functionality has been deprecated]", ...: nvidia-smi's ways of
// saying that it has no value for a field.
bool is_no_value(std::string_view cell);

// "81559 MiB", or "81559" under a "[MiB]" header (nounits) -> bytes. nvidia-smi
// gives memory in MiB, which is assumed when neither the cell nor the header
// has a unit. nullopt when the cell is not a size.
std::optional<std::uint64_t> parse_memory_bytes(std::string_view cell,
                                                std::string_view header_unit);

// "00000000:00:09.0" -> "0000:00:09.0", "0000000F:01:00.0" -> "000f:01:00.0":
// lowercase, the domain printed with at least four hex digits as sysfs does.
// "" when the text is not a PCI address.
std::string normalise_pci_bus_id(std::string_view text);

// "9.0" -> "sm_90", "12.1" -> "sm_121"; "" when the text is not major.minor.
std::string compute_class_from_cap(std::string_view compute_cap);

// One row of the query, read by column name.
struct NvidiaSmiGpu {
  std::optional<int> index;
  std::string uuid;
  std::string pci_bus_id;  // normalised; "" when unknown
  std::string name;
  std::optional<std::uint64_t> memory_total_bytes;
  std::optional<std::uint64_t> memory_used_bytes;
  std::optional<std::uint64_t> memory_free_bytes;
  // nvidia-smi said "[N/A]"/"Not Supported" for memory.total or memory.free:
  // GB10 and Jetson, whose GPU shares the host's memory.
  bool memory_not_reported = false;
  std::string compute_cap;     // "9.0"; "" when unknown
  std::string driver_version;  // "" when unknown
};

struct NvidiaSmiGpuQuery {
  std::vector<std::string> columns;  // as found in the header
  std::vector<NvidiaSmiGpu> gpus;
  std::vector<std::string> problems;  // skipped rows, unreadable cells
};

NvidiaSmiGpuQuery parse_nvidia_smi_gpu_query(std::string_view text);

}  // namespace hwaccel
