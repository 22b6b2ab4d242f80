// The monitoring figures a snapshot recorded for a GPU, by nvidia-smi's own field
// names (temperature.gpu, power.draw.instant, clocks.current.sm, ...): the cells of
// every recorded `nvidia-smi --query-gpu=... --format=csv`, and what a recorded
// `nvidia-smi -q` prints for the same fields (nvml_q_facts.cpp). Cells are kept as
// printed, units cut ("77.88", "P0", "[N/A]"); a field that was not recorded, or
// was recorded as nvidia-smi's "no value" words, is the NVML error the real tool
// turned into those words. Values are never made up.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "nvml/nvml_abi.h"

namespace hwaccel::nvml {

using Cells = std::map<std::string, std::string>;  // field name -> cell, units cut

// A cell's NVML status: NVML_SUCCESS with the text, or what nvidia-smi's words
// stand for: "[N/A]"/"[Not Supported]" NOT_SUPPORTED, "Requested functionality
// has been deprecated" DEPRECATED, "[Insufficient Permissions]" NO_PERMISSION,
// "[GPU is lost]" GPU_IS_LOST, "[Unknown Error]" UNKNOWN; absent: NOT_SUPPORTED.
struct Field {
  nvmlReturn_t status = NVML_ERROR_NOT_SUPPORTED;
  std::string text;
};
Field field_of(const Cells& cells, const std::string& name);

// A cell with its unit cut: "81559 MiB" -> "81559", "28 C" -> "28", "16x" -> "16".
std::string without_unit(std::string_view cell);

// Numbers in cells: "345" -> 345; "77.88" -> 77880 (thousandths, for W -> mW);
// "0x0000000000000001" -> 1; "P8" -> 8. nullopt on anything else.
std::optional<std::uint64_t> cell_uint(std::string_view text);
std::optional<std::uint64_t> cell_milli(std::string_view text);
std::optional<std::uint64_t> cell_hex(std::string_view text);
std::optional<unsigned> cell_pstate(std::string_view text);
// "Enabled"/"Disabled", "Yes"/"No", "Active"/"Not Active", "On"/"Off": 1 or 0.
std::optional<unsigned> cell_flag(std::string_view text);

// The rows of a recorded `--query-gpu` CSV (with its header) by bus id
// ("0000:83:00.0"), or by "#<index>" where the query has no pci.bus_id column.
std::map<std::string, Cells> query_cells(std::string_view csv);

}  // namespace hwaccel::nvml
