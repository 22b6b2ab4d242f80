#include "nvml/nvml_fields.h"

#include <cmath>
#include <cstdlib>

#include "src/probe/nvidia_smi_csv.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel::nvml {
namespace {

constexpr std::size_t kMaxRows = 1024, kMaxCell = 256;

std::string strip_brackets(std::string_view cell) {
  if (cell.size() >= 2 && cell.front() == '[' && cell.back() == ']')
    cell = cell.substr(1, cell.size() - 2);
  return std::string(cell);
}

}  // namespace

Field field_of(const Cells& cells, const std::string& name) {
  auto it = cells.find(name);
  if (it == cells.end()) return {};
  const std::string words = strip_brackets(trim(it->second));
  if (words == "N/A" || words == "Not Supported" || words.empty()) return {};
  if (words == "Requested functionality has been deprecated") return {NVML_ERROR_DEPRECATED, ""};
  if (words == "Insufficient Permissions") return {NVML_ERROR_NO_PERMISSION, ""};
  if (words == "GPU is lost") return {NVML_ERROR_GPU_IS_LOST, ""};
  if (words == "Unknown Error") return {NVML_ERROR_UNKNOWN, ""};
  return {NVML_SUCCESS, it->second};
}

std::string without_unit(std::string_view cell) {
  cell = trim(cell);
  for (std::string_view unit :
       {" MiB", " KB/s", " MHz", " bank(s)", " us", " ms", " W", " C", " %"})
    if (cell.size() > unit.size() && cell.substr(cell.size() - unit.size()) == unit)
      return std::string(trim(cell.substr(0, cell.size() - unit.size())));
  // PCIe link widths: "16x".
  if (cell.size() >= 2 && cell.back() == 'x' && parse_u64(cell.substr(0, cell.size() - 1)))
    return std::string(cell.substr(0, cell.size() - 1));
  return std::string(cell);
}

std::optional<std::uint64_t> cell_uint(std::string_view text) {
  text = trim(text);
  if (text.empty() || text.size() > 20) return std::nullopt;
  return parse_u64(text);
}

std::optional<std::uint64_t> cell_milli(std::string_view text) {
  text = trim(text);
  if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789.") != text.npos ||
      text.front() == '.')
    return std::nullopt;
  const double value = std::strtod(std::string(text).c_str(), nullptr);
  if (!(value >= 0 && value < 1e12)) return std::nullopt;
  return static_cast<std::uint64_t>(std::llround(value * 1000));
}

std::optional<std::uint64_t> cell_hex(std::string_view text) {
  text = trim(text);
  if (text.size() < 3 || text.size() > 18 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
    return std::nullopt;
  return parse_hex(text.substr(2));
}

std::optional<unsigned> cell_pstate(std::string_view text) {
  text = trim(text);
  if (text.size() < 2 || text.size() > 3 || text[0] != 'P') return std::nullopt;
  auto n = parse_u64(text.substr(1));
  if (!n || *n > 15) return std::nullopt;
  return static_cast<unsigned>(*n);
}

std::optional<unsigned> cell_flag(std::string_view text) {
  text = trim(text);
  if (text == "Enabled" || text == "Yes" || text == "Active" || text == "On") return 1;
  if (text == "Disabled" || text == "No" || text == "Not Active" || text == "Off") return 0;
  return std::nullopt;
}

std::map<std::string, Cells> query_cells(std::string_view csv) {
  std::map<std::string, Cells> out;
  NvidiaSmiTable t = parse_nvidia_smi_csv(csv);
  const auto bus = t.column("pci.bus_id"), index = t.column("index");
  for (std::size_t r = 0; r < t.rows.size() && r < kMaxRows; ++r) {
    std::string key;
    if (bus) key = normalise_pci_bus_id(t.rows[r][*bus]);
    if (key.empty() && index && parse_u64(t.rows[r][*index])) key = "#" + t.rows[r][*index];
    if (key.empty()) continue;
    Cells& cells = out[key];
    for (std::size_t c = 0; c < t.columns.size(); ++c)
      if (t.rows[r][c].size() <= kMaxCell) cells[t.columns[c]] = without_unit(t.rows[r][c]);
  }
  return out;
}

}  // namespace hwaccel::nvml
