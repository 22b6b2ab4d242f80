#include "src/probe/nvidia_smi_topo.h"

#include <array>

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::size_t kMaxProblems = 5;

// "GPU12" -> 12; nullopt for anything else.
std::optional<int> gpu_number(std::string_view cell) {
  cell = trim(cell);
  if (cell.size() < 4 || cell.substr(0, 3) != "GPU") return std::nullopt;
  auto value = parse_u64(cell.substr(3));
  if (!value || *value > 100'000) return std::nullopt;
  return static_cast<int>(*value);
}

// A header cell that is no longer a device: "CPU Affinity" in a tab-separated
// header; in a space-separated one the words come one by one ("CPU",
// "Affinity", "GPU" of "GPU NUMA ID"), and device names all end in a number
// (GPU0, NIC0, mlx5_0) where these words have none.
bool is_named_column(std::string_view cell, bool by_spaces) {
  if (!by_spaces) return cell.find(' ') != std::string_view::npos;
  return cell.find_first_of("0123456789") == std::string_view::npos;
}

// The cells of a line. nvidia-smi separates them by tabs; pasted into a blog
// or an issue the tabs are usually spaces (expanded to 8-column stops, so a
// 7-character cell is followed by one space only): a line without a tab is
// split at every run of blanks. Empty cells are lost that way, which costs
// nothing here: they only follow the cells read by position.
std::vector<std::string_view> cells_of(std::string_view line, bool& by_spaces) {
  by_spaces = line.find('\t') == std::string_view::npos;
  if (!by_spaces) return split(line, '\t');
  std::vector<std::string_view> cells;
  std::size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && (line[at] == ' ' || line[at] == '\r')) ++at;
    std::size_t end = at;
    while (end < line.size() && line[end] != ' ' && line[end] != '\r') ++end;
    if (end > at) cells.push_back(line.substr(at, end - at));
    at = end;
  }
  return cells;
}

bool is_pcie_path(std::string_view cell) {
  static constexpr std::array<std::string_view, 6> kPaths = {"PIX",  "PXB", "PHB",
                                                             "NODE", "SYS", "SOC"};
  for (auto path : kPaths)
    if (cell == path) return true;
  return false;
}

}  // namespace

NvidiaTopology parse_nvidia_smi_topo(std::string_view text) {
  NvidiaTopology topo;
  std::size_t dropped = 0;
  auto note = [&](std::string problem) {
    if (topo.problems.size() < kMaxProblems)
      topo.problems.push_back(std::move(problem));
    else
      ++dropped;
  };

  const std::string plain = strip_ansi(text);
  std::vector<std::optional<int>> columns;  // per device column: GPU number, or nullopt (NIC...)
  bool have_header = false;
  for (auto line : split_lines(plain)) {
    if (trim(line).empty()) continue;
    if (trim(line).substr(0, 7) == "Legend:") break;
    bool by_spaces = false;
    auto cells = cells_of(line, by_spaces);
    if (cells.empty()) continue;
    if (!have_header) {
      // The header: device names, then named columns ("CPU Affinity", ...).
      for (auto cell : cells) {
        cell = trim(cell);
        if (cell.empty()) continue;
        if (is_named_column(cell, by_spaces)) break;
        columns.push_back(gpu_number(cell));
      }
      if (columns.empty() || !columns.front()) {
        note("first line is not a topology header: \"" + printable_line(line, 80) + "\"");
        columns.clear();
        continue;
      }
      have_header = true;
      continue;
    }
    auto row_gpu = gpu_number(cells.front());
    if (!row_gpu) continue;  // NIC rows and anything else
    if (cells.size() < columns.size() + 1) {
      note("GPU" + std::to_string(*row_gpu) + " row has " + std::to_string(cells.size() - 1) +
           " cells for " + std::to_string(columns.size()) + " devices; skipped");
      continue;
    }
    NvidiaTopoGpu gpu;
    gpu.gpu = *row_gpu;
    if (cells.size() > columns.size() + 1) {
      auto affinity = trim(cells[columns.size() + 1]);
      if (!affinity.empty() && affinity != "N/A") gpu.cpu_affinity = printable_line(affinity, 120);
    }
    if (cells.size() > columns.size() + 2) {
      auto numa = trim(cells[columns.size() + 2]);
      auto value = parse_u64(numa);
      if (value && *value <= 4096) gpu.numa_node = static_cast<int>(*value);
    }
    topo.gpus.push_back(std::move(gpu));

    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (!columns[c] || *columns[c] <= *row_gpu) continue;  // NICs, self, lower triangle
      auto cell = trim(cells[c + 1]);
      NvidiaTopoLink link;
      link.a = *row_gpu;
      link.b = *columns[c];
      if (cell.size() > 2 && cell.substr(0, 2) == "NV") {
        auto lanes = parse_u64(cell.substr(2));
        if (!lanes || *lanes > 1000) {
          note("GPU" + std::to_string(link.a) + "-GPU" + std::to_string(link.b) + ": \"" +
               printable_line(cell, 20) + "\" is not a link");
          continue;
        }
        link.kind = "nvlink";
        link.lanes = static_cast<int>(*lanes);
      } else if (is_pcie_path(cell)) {
        link.kind = "pcie";
        link.path = std::string(cell);
      } else {
        note("GPU" + std::to_string(link.a) + "-GPU" + std::to_string(link.b) + ": \"" +
             printable_line(cell, 20) + "\" is not a link");
        continue;
      }
      topo.links.push_back(std::move(link));
    }
  }
  if (dropped > 0)
    topo.problems.push_back("... and " + std::to_string(dropped) + " more like these");
  return topo;
}

}  // namespace hwaccel
