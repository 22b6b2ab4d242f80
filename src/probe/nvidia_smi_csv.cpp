#include "src/probe/nvidia_smi_csv.h"

#include <array>
#include <utility>

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

// Garbage input could yield a note per line; a few tell the story.
constexpr std::size_t kMaxProblems = 5;

void note(std::vector<std::string>& problems, std::size_t& dropped, std::string problem) {
  if (problems.size() < kMaxProblems)
    problems.push_back(std::move(problem));
  else
    ++dropped;
}

void close_notes(std::vector<std::string>& problems, std::size_t dropped) {
  if (dropped > 0) problems.push_back("... and " + std::to_string(dropped) + " more like these");
}

// "memory.total [MiB]" -> {"memory.total", "MiB"}.
std::pair<std::string, std::string> split_header_cell(std::string_view cell) {
  cell = trim(cell);
  auto open = cell.rfind(" [");
  if (open != std::string_view::npos && cell.size() > open + 2 && cell.back() == ']') {
    auto unit = cell.substr(open + 2, cell.size() - open - 3);
    return {std::string(trim(cell.substr(0, open))), std::string(trim(unit))};
  }
  return {std::string(cell), {}};
}

std::optional<std::uint64_t> unit_multiplier(std::string_view unit) {
  static constexpr std::array<std::pair<std::string_view, std::uint64_t>, 6> kUnits = {{
      {"B", 1},
      {"KiB", 1ull << 10},
      {"MiB", 1ull << 20},
      {"GiB", 1ull << 30},
      {"TiB", 1ull << 40},
      {"bytes", 1},
  }};
  for (const auto& [name, factor] : kUnits)
    if (unit == name) return factor;
  return std::nullopt;
}

std::optional<std::uint64_t> hex_field(std::string_view text, std::size_t max_digits,
                                       std::uint64_t max_value) {
  if (text.empty() || text.size() > max_digits) return std::nullopt;
  auto value = parse_hex(text);
  if (!value || *value > max_value || text.find_first_of("xX") != std::string_view::npos)
    return std::nullopt;
  return value;
}

std::string hex_digits(std::uint64_t value, std::size_t width) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string digits;
  do {
    digits.insert(digits.begin(), kDigits[value & 0xf]);
    value >>= 4;
  } while (value != 0);
  while (digits.size() < width) digits.insert(digits.begin(), '0');
  return digits;
}

// A cell as a string field: "" for "no value", printable otherwise.
std::string text_cell(std::string_view cell) {
  return is_no_value(cell) ? std::string() : printable_line(cell);
}

}  // namespace

std::optional<std::size_t> NvidiaSmiTable::column(std::string_view name) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return i;
  return std::nullopt;
}

NvidiaSmiTable parse_nvidia_smi_csv(std::string_view text) {
  NvidiaSmiTable table;
  std::size_t dropped = 0;
  bool have_header = false;
  std::string header_line;
  std::size_t row_number = 0;
  for (auto line : split_lines(text)) {
    if (trim(line).empty()) continue;
    // The header again (output of two runs run together): not a GPU.
    if (have_header && trim(line) == header_line) {
      note(table.problems, dropped, "the header line appears again; skipped");
      continue;
    }
    auto cells = split(line, ',');
    if (!have_header) {
      header_line = std::string(trim(line));
      for (auto cell : cells) {
        auto [name, unit] = split_header_cell(cell);
        table.columns.push_back(std::move(name));
        table.units.push_back(std::move(unit));
      }
      have_header = true;
      continue;
    }
    ++row_number;
    if (cells.size() != table.columns.size()) {
      note(table.problems, dropped,
           "row " + std::to_string(row_number) + " has " + std::to_string(cells.size()) +
               " cells for " + std::to_string(table.columns.size()) + " columns; skipped");
      continue;
    }
    std::vector<std::string> row;
    row.reserve(cells.size());
    for (auto cell : cells) row.emplace_back(trim(cell));
    table.rows.push_back(std::move(row));
  }
  close_notes(table.problems, dropped);
  return table;
}

bool is_no_value(std::string_view cell) {
  cell = trim(cell);
  // nvidia-smi brackets every such marker in its CSV; the table prints some bare.
  if (cell.size() >= 2 && cell.front() == '[' && cell.back() == ']') return true;
  static constexpr std::array<std::string_view, 5> kBare = {
      "n/a", "not supported", "unknown error", "insufficient permissions",
      "requested functionality has been deprecated"};
  auto lower = to_lower(cell);
  for (auto marker : kBare)
    if (lower == marker) return true;
  return false;
}

std::optional<std::uint64_t> parse_memory_bytes(std::string_view cell,
                                                std::string_view header_unit) {
  cell = trim(cell);
  auto space = cell.find(' ');
  auto number = parse_u64(cell.substr(0, space));
  if (!number) return std::nullopt;
  std::string_view unit =
      space == std::string_view::npos ? trim(header_unit) : trim(cell.substr(space));
  if (unit.empty()) unit = "MiB";
  auto factor = unit_multiplier(unit);
  if (!factor) return std::nullopt;
  return checked_multiply(*number, *factor);
}

std::string normalise_pci_bus_id(std::string_view text) {
  text = trim(text);
  auto parts = split(text, ':');
  if (parts.size() == 2) parts.insert(parts.begin(), std::string_view("0"));
  if (parts.size() != 3) return {};
  auto dot = parts[2].find('.');
  if (dot == std::string_view::npos) return {};
  auto domain = hex_field(parts[0], 8, 0xffffffff);
  auto bus = hex_field(parts[1], 2, 0xff);
  auto device = hex_field(parts[2].substr(0, dot), 2, 0x1f);
  auto function = hex_field(parts[2].substr(dot + 1), 1, 0x7);
  if (!domain || !bus || !device || !function) return {};
  return hex_digits(*domain, 4) + ":" + hex_digits(*bus, 2) + ":" + hex_digits(*device, 2) + "." +
         hex_digits(*function, 1);
}

std::string compute_class_from_cap(std::string_view compute_cap) {
  compute_cap = trim(compute_cap);
  auto dot = compute_cap.find('.');
  if (dot == std::string_view::npos) return {};
  auto major = compute_cap.substr(0, dot), minor = compute_cap.substr(dot + 1);
  auto major_value = parse_u64(major), minor_value = parse_u64(minor);
  if (!major_value || !minor_value || *major_value > 99 || *minor_value > 9) return {};
  return "sm_" + std::to_string(*major_value) + std::to_string(*minor_value);
}

NvidiaSmiGpuQuery parse_nvidia_smi_gpu_query(std::string_view text) {
  auto table = parse_nvidia_smi_csv(text);
  NvidiaSmiGpuQuery query;
  query.columns = table.columns;
  query.problems = table.problems;

  auto cell = [&](const std::vector<std::string>& row,
                  std::string_view column) -> std::optional<std::string_view> {
    auto at = table.column(column);
    if (!at) return std::nullopt;
    return std::string_view(row[*at]);
  };
  auto unit = [&](std::string_view column) -> std::string_view {
    auto at = table.column(column);
    return at ? std::string_view(table.units[*at]) : std::string_view();
  };

  std::size_t dropped = 0;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const auto& row = table.rows[r];
    NvidiaSmiGpu gpu;
    std::string label = "GPU row " + std::to_string(r + 1);

    if (auto index = cell(row, "index"); index && !is_no_value(*index)) {
      auto value = parse_u64(*index);
      if (value && *value <= 1'000'000)
        gpu.index = static_cast<int>(*value);
      else
        note(query.problems, dropped,
             label + ": index \"" + printable_line(*index, 40) + "\" is not a number");
    }
    if (gpu.index) label = "GPU " + std::to_string(*gpu.index);
    if (auto uuid = cell(row, "uuid")) gpu.uuid = text_cell(*uuid);
    if (auto name = cell(row, "name")) gpu.name = text_cell(*name);
    if (auto bus = cell(row, "pci.bus_id"); bus && !is_no_value(*bus)) {
      gpu.pci_bus_id = normalise_pci_bus_id(*bus);
      if (gpu.pci_bus_id.empty())
        note(query.problems, dropped,
             label + ": pci.bus_id \"" + printable_line(*bus, 40) + "\" is not a PCI address");
    }

    auto read_memory = [&](std::string_view column, std::optional<std::uint64_t>& bytes,
                           bool counts_as_unreported) {
      auto value = cell(row, column);
      if (!value) return;
      if (is_no_value(*value)) {
        gpu.memory_not_reported |= counts_as_unreported;
        return;
      }
      bytes = parse_memory_bytes(*value, unit(column));
      if (!bytes)
        note(query.problems, dropped,
             label + ": " + std::string(column) + " \"" + printable_line(*value, 40) +
                 "\" is not a size");
    };
    read_memory("memory.total", gpu.memory_total_bytes, true);
    read_memory("memory.used", gpu.memory_used_bytes, false);
    read_memory("memory.free", gpu.memory_free_bytes, true);

    if (auto cap = cell(row, "compute_cap")) gpu.compute_cap = text_cell(*cap);
    if (auto driver = cell(row, "driver_version")) gpu.driver_version = text_cell(*driver);
    query.gpus.push_back(std::move(gpu));
  }
  close_notes(query.problems, dropped);
  return query;
}

}  // namespace hwaccel
