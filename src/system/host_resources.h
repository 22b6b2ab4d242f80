// The host's CPUs, NUMA nodes and memory as lscpu and hwloc count them, and what
// this process may use of them (its cgroup's cpuset, CPU quota and memory limit). Read from
// sysfs and procfs through the Host; every figure names where it came from.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"
#include "src/model/warning.h"
#include "src/system/cgroup_limits.h"

namespace hwaccel {

// Counts over a set of logical CPUs: threads is the set's size; cores and
// sockets are distinct (package, core) and package ids, unknown without them.
struct CpuCounts {
  int threads = 0;
  std::optional<int> cores, sockets;
};

struct HostResources {
  std::vector<int> online;    // logical CPU ids; empty: unknown
  std::string online_source;  // "/sys/devices/system/cpu/online", ...
  CpuCounts cpus;             // over `online`
  std::string topology_source;
  int numa_nodes = 0;  // 0: unknown
  std::string numa_source;
  std::optional<std::uint64_t> memory_bytes;  // host total
  std::string memory_source;

  // What this process may use: the same figures after its cgroup's limits.
  std::vector<int> usable;
  CpuCounts usable_cpus;
  int usable_numa_nodes = 0;
  std::optional<std::uint64_t> usable_memory_bytes;
  // min(the cpuset's CPUs, ceil(quota / period)): what a thread pool should
  // size to. Equal to usable.size() when no quota binds.
  int usable_cpu_count = 0;
  std::vector<std::string> limited_by;  // one line per limit that bites, with its file
  CgroupLimits cgroup;
};

// "Node 0 MemTotal:       8387584 kB" (a /sys/devices/system/node/nodeN/meminfo) -> bytes.
std::optional<std::uint64_t> parse_node_meminfo_total(std::string_view text);

HostResources scan_host_resources(Host& host, std::vector<Warning>& warnings);

// {0,1,2,3,8} -> "0-3,8", as the kernel writes CPU lists.
std::string cpu_list_text(const std::vector<int>& ids);

// "CPU time of 4 CPUs"; "CPU time of 2.5 CPUs, counted as 3".
std::string cpu_quota_text(const CpuQuota& q);

// "2 sockets, 16 cores, 32 threads" ("32 threads" alone when the rest is unknown).
std::string cpu_counts_text(const CpuCounts& c);

}  // namespace hwaccel
