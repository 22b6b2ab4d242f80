#include "src/probe/gpu_numa_memory.h"

#include <algorithm>
#include <cstdio>

#include "src/probe/nvidia_kernel_gpus.h"
#include "src/probe/nvidia_smi_csv.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

std::optional<std::uint64_t> kib_value(std::string_view value) {
  value = trim(value);
  if (value.size() > 3 && value.substr(value.size() - 3) == " kB")
    value = trim(value.substr(0, value.size() - 3));
  auto kib = parse_u64(value);
  if (!kib) return std::nullopt;
  return checked_multiply(*kib, 1024);
}

std::string gib_text(std::uint64_t bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f GiB", double(bytes) / (1024.0 * 1024.0 * 1024.0));
  return buffer;
}

}  // namespace

NodeMeminfo parse_node_meminfo(std::string_view text) {
  NodeMeminfo out;
  for (auto line : split_lines(text)) {
    // "Node 252 MemTotal:       16515072 kB": the key follows the node number.
    line = trim(line);
    if (line.rfind("Node ", 0) != 0) continue;
    auto space = line.find(' ', 5);
    if (space == std::string_view::npos) continue;
    auto kv = split_key_value(line.substr(space + 1));
    if (!kv) continue;
    if (kv->key == "MemTotal")
      out.total_bytes = kib_value(kv->value);
    else if (kv->key == "MemFree")
      out.free_bytes = kib_value(kv->value);
  }
  return out;
}

std::vector<GpuMemoryNode> gpu_memory_nodes(Host& host) {
  std::vector<GpuMemoryNode> out;
  auto names = host.list(kNvidiaProcGpus);
  if (!names) return out;
  for (const auto& name : *names) {
    const std::string address = normalise_pci_bus_id(name);
    if (address.empty()) continue;
    auto text = host.read(std::string(kNvidiaProcGpus) + "/" + name + "/numa_status");
    if (!text) continue;
    auto status = parse_nvidia_numa_status(*text);
    if (!status.node) continue;
    GpuMemoryNode node;
    node.node = *status.node;
    node.gpu_address = address;
    node.status = status.status;
    const std::string meminfo =
        std::string(kNumaNodesDir) + "/node" + std::to_string(node.node) + "/meminfo";
    if (auto m = host.read(meminfo)) node.memory = parse_node_meminfo(*m);
    out.push_back(std::move(node));
  }
  std::sort(out.begin(), out.end(),
            [](const GpuMemoryNode& a, const GpuMemoryNode& b) { return a.node < b.node; });
  return out;
}

std::string gpu_memory_node_text(const GpuMemoryNode& node) {
  std::string text = "NUMA node " + std::to_string(node.node);
  std::string detail = node.status;
  if (node.memory.total_bytes) {
    if (!detail.empty()) detail += ", ";
    detail += gib_text(*node.memory.total_bytes);
  }
  if (!detail.empty()) text += " (" + detail + ")";
  return text;
}

GpuMemoryInHost gpu_memory_in_host(const std::vector<GpuMemoryNode>& nodes) {
  GpuMemoryInHost out;
  for (const auto& node : nodes) {
    if (!node.memory.total_bytes || *node.memory.total_bytes == 0) continue;
    if (std::find(out.nodes.begin(), out.nodes.end(), node.node) != out.nodes.end()) continue;
    out.total_bytes += *node.memory.total_bytes;
    out.free_bytes += node.memory.free_bytes.value_or(0);
    out.nodes.push_back(node.node);
  }
  return out;
}

std::string numa_nodes_text(const std::vector<int>& nodes) {
  if (nodes.size() == 1) return "NUMA node " + std::to_string(nodes.front());
  std::vector<int> sorted = nodes;
  std::sort(sorted.begin(), sorted.end());
  std::string text = "NUMA nodes ";
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    if (i > 0) text += ", ";
    text += std::to_string(sorted[i]);
    if (j > i) text += "-" + std::to_string(sorted[j]);
    i = j + 1;
  }
  return text;
}

}  // namespace hwaccel
