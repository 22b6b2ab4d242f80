#include "src/probe/cpu_probe.h"

#include <algorithm>
#include <optional>

#include "src/probe/gpu_numa_memory.h"
#include "src/probe/proc_cpuinfo.h"
#include "src/probe/proc_meminfo.h"
#include "src/system/host_resources.h"

namespace hwaccel {
namespace {

constexpr std::string_view kCpuinfo = "/proc/cpuinfo";
constexpr std::string_view kMeminfo = "/proc/meminfo";

Warning cpu_warning(std::string message) {
  return Warning{"cpu", std::move(message)};
}

std::string cannot_read(std::string_view path, const Error& error) {
  return "cannot read " + std::string(path) + " (" + error.errno_name() + ")";
}

void fill_from_cpuinfo(Host& host, Entry& cpu, std::vector<Warning>& warnings) {
  auto text = host.read_text(kCpuinfo);
  if (!text) {
    warnings.push_back(cpu_warning(cannot_read(kCpuinfo, text.error()) + "; CPU name unknown"));
    return;
  }
  auto info = parse_proc_cpuinfo(text->view());
  cpu.name = info.name;
  cpu.vendor = info.vendor;
  cpu.compute_class = info.isa_class;
  if (info.name.empty())
    warnings.push_back(cpu_warning("no CPU name found in " + std::string(kCpuinfo)));
}

// /proc/meminfo, else (a tree that has none, or none with MemTotal: some of
// hwloc's gathers) the system scan's total, the sum of the NUMA nodes' meminfo:
// one figure for cpu:0, the system section and the summary. Returns whether
// the figures came from /proc/meminfo (the scan's total has GPU NUMA memory
// taken off already).
bool fill_from_meminfo(Host& host, const HostResources& r, Entry& cpu,
                       std::vector<Warning>& warnings) {
  auto text = host.read(kMeminfo);
  std::optional<MemInfo> info;
  if (text) info = parse_proc_meminfo(*text);
  if ((!info || !info->total_bytes) && r.memory_bytes) {
    cpu.memory.total_bytes = r.memory_bytes;
    cpu.memory.source = r.memory_source;
    cpu.provenance.back() = "file:" + std::string(kNumaNodesDir);
    return false;
  }
  if (!info) {
    warnings.push_back(
        cpu_warning(cannot_read(kMeminfo, text.error()) + "; system memory unknown"));
    return false;
  }
  cpu.memory.total_bytes = info->total_bytes;
  cpu.memory.free_bytes = info->available_bytes;
  if (!info->total_bytes)
    warnings.push_back(cpu_warning("no MemTotal in " + std::string(kMeminfo)));
  if (info->available_estimated)
    warnings.push_back(cpu_warning(
        "no MemAvailable in " + std::string(kMeminfo) +
        " (kernel older than 3.14?); free memory estimated as MemFree + Buffers + Cached"));
  return true;
}

// GPU memory onlined as NUMA nodes (POWER9 V100s, GH200) is in MemTotal but is
// not the host's: take it off both figures and say so.
void exclude_gpu_numa_memory(Host& host, Entry& cpu) {
  if (!cpu.memory.total_bytes) return;
  const auto gpu = gpu_memory_in_host(gpu_memory_nodes(host));
  if (gpu.nodes.empty() || gpu.total_bytes >= *cpu.memory.total_bytes) return;
  *cpu.memory.total_bytes -= gpu.total_bytes;
  if (cpu.memory.free_bytes)
    *cpu.memory.free_bytes -= std::min(*cpu.memory.free_bytes, gpu.free_bytes);
  cpu.memory.source += " less " + numa_nodes_text(gpu.nodes) + " (GPU memory, from " +
                       "/proc/driver/nvidia/gpus/*/numa_status)";
  cpu.provenance.push_back("file:" + std::string(kNumaNodesDir));
}

// Inside a container, pod or Slurm step the process may use less than the host
// has: the cgroup's memory limit (or its cpuset's NUMA nodes) bounds what a
// plan may put in host memory. The system scan reports the why.
void limit_to_cgroup(const HostResources& r, Entry& cpu) {
  if (!r.usable_memory_bytes || !cpu.memory.total_bytes ||
      *r.usable_memory_bytes >= *cpu.memory.total_bytes)
    return;
  cpu.memory.working_set_limit_bytes = r.usable_memory_bytes;
  if (cpu.memory.free_bytes && *cpu.memory.free_bytes > *r.usable_memory_bytes)
    cpu.memory.free_bytes = r.usable_memory_bytes;
  cpu.memory.source += " (cgroup v" + std::to_string(r.cgroup.version) + " limit)";
}

}  // namespace

ProbeResult CpuProbe::run(Host& host) const {
  ProbeResult result;
  result.backend.name = "cpu";
  result.backend.ready = true;  // the CPU is always there, even when /proc says little

  Entry cpu;
  cpu.backend = "cpu";
  cpu.api = "host";
  cpu.index = 0;
  cpu.physical_id = "cpu:0";
  cpu.type = DeviceType::cpu;
  cpu.status = EntryStatus::ready;
  cpu.memory.kind = MemoryKind::host;
  cpu.memory.source = std::string(kMeminfo);
  cpu.provenance = {"file:" + std::string(kCpuinfo), "file:" + std::string(kMeminfo)};

  // The system scan reports its own notes; they are not this probe's warnings.
  std::vector<Warning> ignored;
  std::optional<HostResources> own;
  if (!shared_) own = scan_host_resources(host, ignored);
  const HostResources& r = shared_ ? *shared_ : *own;
  fill_from_cpuinfo(host, cpu, result.warnings);
  if (fill_from_meminfo(host, r, cpu, result.warnings)) exclude_gpu_numa_memory(host, cpu);
  limit_to_cgroup(r, cpu);
  result.entries.push_back(std::move(cpu));
  return result;
}

}  // namespace hwaccel
