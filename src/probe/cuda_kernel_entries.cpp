#include "src/probe/cuda_kernel_entries.h"

#include <algorithm>

#include "src/catalog/nvidia_pci_ids.h"
#include "src/probe/cuda_tool.h"
#include "src/probe/gpu_numa_memory.h"
#include "src/probe/pci_bus.h"

namespace hwaccel {
namespace {

ProbeResult unavailable(ProbeResult result, Reason reason) {
  result.backend.ready = false;
  result.backend.reason = std::move(reason);
  result.entries.clear();
  return result;
}

// The GPU's memory as a NUMA node (numa_status): where it is reachable from
// the CPUs. Where nothing else gives the GPU a size, the node's does.
void note_memory_node(Host& host, const KernelGpu& gpu, Entry& entry) {
  if (!gpu.numa_status || !gpu.numa_status->node) return;
  GpuMemoryNode node;
  node.node = *gpu.numa_status->node;
  node.gpu_address = gpu.address;
  node.status = gpu.numa_status->status;
  const std::string meminfo =
      std::string(kNumaNodesDir) + "/node" + std::to_string(node.node) + "/meminfo";
  if (auto text = host.read(meminfo)) node.memory = parse_node_meminfo(*text);
  const std::string where = "reachable as " + gpu_memory_node_text(node);
  if (!entry.memory.total_bytes && node.memory.total_bytes && *node.memory.total_bytes > 0) {
    entry.memory.total_bytes = node.memory.total_bytes;
    entry.memory.free_bytes = node.memory.free_bytes;
    entry.memory.source = meminfo + " (the GPU's memory, " + where + ")";
    entry.provenance.push_back("file:" + meminfo);
    return;
  }
  entry.memory.source += entry.memory.source.empty() ? where : "; " + where;
}

void take_kernel_ids(const KernelGpu& gpu, Entry& entry) {
  if (gpu.device_id) entry.pci_device_id = gpu.device_id;
  if (gpu.numa_node) entry.numa_node = gpu.numa_node;
  for (const auto& place : gpu.provenance)
    if (place.rfind("file:" + std::string(kPciDevicesDir), 0) == 0)
      entry.provenance.push_back(place);
}

Entry bus_entry(Host& host, const KernelGpu& gpu, int index) {
  Entry entry;
  entry.backend = "cuda";
  entry.api = std::string(kCudaTool);
  entry.index = index;
  entry.physical_id = gpu.address.empty() ? "nvidia:" + gpu.device_node : "pci:" + gpu.address;
  entry.vendor = "NVIDIA";
  entry.pci_vendor_id = kCudaPciVendor;
  entry.pci_bus_id = gpu.address;
  entry.type = DeviceType::gpu;
  entry.status = EntryStatus::unavailable;
  entry.pci_device_id = gpu.device_id;
  entry.numa_node = gpu.numa_node;
  if (gpu.device_id) entry.name = nvidia_pci_device_name(*gpu.device_id);
  if (gpu.info) {
    if (!gpu.info->model.empty()) entry.name = gpu.info->model;
    entry.uuid = gpu.info->uuid;
  }
  entry.provenance = gpu.provenance;
  if (entry.name.empty()) entry.name = "NVIDIA GPU";
  note_memory_node(host, gpu, entry);
  return entry;
}

// What says the nvidia driver holds a GPU: its sysfs link, else the module's
// own files. "" when nothing does.
std::string driver_evidence(const KernelGpu& gpu) {
  if (gpu.driver == "nvidia") return "the nvidia driver is bound to " + gpu.address;
  if (!gpu.module_holds) return "";
  if (!gpu.device_node.empty()) return gpu.device_node + " exists: the nvidia module is loaded";
  return "the nvidia module lists " + gpu.address + " in " + std::string(kNvidiaProcGpus);
}

// Why a kernel GPU is not usable when nvidia-smi is not on PATH: the driver tells.
Reason reason_without_tool(const KernelGpu& gpu) {
  if (auto held = driver_evidence(gpu); !held.empty())
    return {ReasonCode::tool_not_found, "nvidia-smi not found on PATH (" + held + ")"};
  if (gpu.driver.empty())
    return {ReasonCode::driver_not_found,
            "no driver bound to " + gpu.address + " (nvidia-smi not found)"};
  return {ReasonCode::driver_not_found,
          gpu.address + " is bound to " + gpu.driver + ", not nvidia (nvidia-smi not found)"};
}

}  // namespace

int cuda_next_index(const std::vector<Entry>& entries) {
  int next = 0;
  for (const auto& e : entries) next = std::max(next, e.index + 1);
  return next;
}

const KernelGpu* cuda_find_kernel_gpu(const std::vector<KernelGpu>& gpus,
                                      const std::string& address) {
  if (address.empty()) return nullptr;
  for (const auto& gpu : gpus)
    if (gpu.address == address) return &gpu;
  return nullptr;
}

void cuda_add_kernel_facts(Host& host, const KernelGpu& gpu, Entry& entry) {
  take_kernel_ids(gpu, entry);
  note_memory_node(host, gpu, entry);
}

ProbeResult cuda_bus_only(Host& host, ProbeResult result, const std::vector<KernelGpu>& seen,
                          Reason reason) {
  if (seen.empty()) return unavailable(std::move(result), std::move(reason));

  result.entries.clear();
  bool any_driver = false;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    Entry entry = bus_entry(host, seen[i], static_cast<int>(i));
    if (reason.code == ReasonCode::tool_not_found) {
      entry.reason = reason_without_tool(seen[i]);
    } else {
      entry.reason = reason;
      if (driver_evidence(seen[i]).empty() && seen[i].driver.empty())  // what the bus adds
        entry.reason->detail += " (no driver bound to " + seen[i].address + ")";
    }
    any_driver |= entry.reason->code == ReasonCode::tool_not_found;
    result.entries.push_back(std::move(entry));
  }
  result.backend.ready = false;
  if (reason.code == ReasonCode::tool_not_found && !any_driver) {
    const auto n = seen.size();
    reason = {ReasonCode::driver_not_found,
              std::to_string(n) + (n == 1 ? " NVIDIA GPU" : " NVIDIA GPUs") +
                  " on the PCI bus without the nvidia driver; nvidia-smi not found"};
  }
  result.backend.reason = std::move(reason);
  return result;
}

void cuda_add_unlisted_kernel_gpus(Host& host, const std::vector<KernelGpu>& bus,
                                   ProbeResult& result) {
  int index = cuda_next_index(result.entries);
  for (const auto& gpu : bus) {
    if (gpu.address.empty()) continue;  // a device node: nvidia-smi's list is better
    bool listed = std::any_of(result.entries.begin(), result.entries.end(),
                              [&](const Entry& e) { return e.pci_bus_id == gpu.address; });
    if (listed) continue;
    Entry entry = bus_entry(host, gpu, index++);
    if (gpu.driver == "nvidia" || (gpu.driver.empty() && gpu.module_holds))
      entry.reason =
          Reason{ReasonCode::probe_failed,
                 "on the PCI bus with the nvidia driver, but nvidia-smi does not list it"};
    else if (gpu.driver.empty())
      entry.reason = Reason{ReasonCode::driver_not_found, "no driver bound to " + gpu.address};
    else
      entry.reason = Reason{ReasonCode::driver_not_found,
                            gpu.address + " is bound to " + gpu.driver + ", not nvidia"};
    result.entries.push_back(std::move(entry));
  }
}

}  // namespace hwaccel
