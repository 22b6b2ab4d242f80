// GPU memory that the kernel onlines as NUMA nodes: coherent V100s on POWER9
// (nodes 250-255), GH200's HBM. /proc/meminfo counts it as system memory, so
// the host's figure must leave it out, and the GPU's entry can say where it is.
//
// Evidence: the nvidia module's /proc/driver/nvidia/gpus/<bus>/numa_status
// names the node ("Node: 252"); its size is the node's own meminfo.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"

namespace hwaccel {

inline constexpr const char* kNumaNodesDir = "/sys/devices/system/node";

// /sys/devices/system/node/nodeN/meminfo: "Node 252 MemTotal:  16515072 kB".
struct NodeMeminfo {
  std::optional<std::uint64_t> total_bytes;
  std::optional<std::uint64_t> free_bytes;
};
NodeMeminfo parse_node_meminfo(std::string_view text);

struct GpuMemoryNode {
  int node = 0;
  std::string gpu_address;  // "0035:03:00.0"
  std::string status;       // numa_status's Status ("online")
  NodeMeminfo memory;       // empty when the node's meminfo cannot be read
};

// One per GPU whose numa_status names a node, sorted by node.
std::vector<GpuMemoryNode> gpu_memory_nodes(Host& host);

// "NUMA node 252 (online, 15.6 GiB)": the words the GPU's entry carries.
std::string gpu_memory_node_text(const GpuMemoryNode& node);

// What /proc/meminfo counts of the GPUs' nodes, to be taken off the host's
// total (MemTotal) and free (MemAvailable) figures.
struct GpuMemoryInHost {
  std::uint64_t total_bytes = 0;
  std::uint64_t free_bytes = 0;
  std::vector<int> nodes;  // the nodes that held memory
};
GpuMemoryInHost gpu_memory_in_host(const std::vector<GpuMemoryNode>& nodes);

// "NUMA nodes 250-255" / "NUMA node 1" / "NUMA nodes 1, 3".
std::string numa_nodes_text(const std::vector<int>& nodes);

}  // namespace hwaccel
