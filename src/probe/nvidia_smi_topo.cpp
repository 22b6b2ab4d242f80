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

bool is_named_column(std::string_view cell) {
  return cell.find(' ') != std::string_view::npos;
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
    auto cells = split(line, '\t');
    if (!have_header) {
      // The header: device names, then named columns ("CPU Affinity", ...).
      for (auto cell : cells) {
        cell = trim(cell);
        if (cell.empty()) continue;
        if (is_named_column(cell)) break;
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
