#include "src/probe/cuda_memory_facts.h"

#include <algorithm>
#include <cstdio>

#include "src/probe/nvidia_smi_list.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

std::optional<int> mig_device_of(const Entry& e) {
  auto slash = e.physical_id.rfind('/');
  if (slash == std::string::npos) return std::nullopt;
  auto n = parse_u64(std::string_view(e.physical_id).substr(slash + 1));
  if (!n || *n > 100000) return std::nullopt;
  return int(*n);
}

const NvidiaSmiQMig* find_mig(const NvidiaSmiQ& q, const std::string& bus, int device) {
  for (const auto& gpu : q.gpus) {
    if (gpu.bus_id != bus) continue;
    for (const auto& mig : gpu.mig_devices)
      if (mig.index == device) return &mig;
  }
  return nullptr;
}

void estimate_from_name(Entry& e) {
  e.memory.total_bytes = mig_profile_memory_bytes(e.partition->profile);
  e.memory.free_bytes.reset();
  if (e.memory.total_bytes)
    e.memory.source = "estimated from the profile name " + e.partition->profile +
                      " (GB in the name; the real size differs by a few percent either way)";
}

}  // namespace

void apply_mig_memory(const NvidiaSmiQ* q, const std::string& q_provenance, ProbeResult& result) {
  // (parent bus, GPU instance) -> the entry that carries the instance's memory
  std::map<std::pair<std::string, int>, std::string> holder;
  for (auto& e : result.entries) {
    if (!e.partition || e.backend != "cuda") continue;
    auto device = mig_device_of(e);
    const NvidiaSmiQMig* mig = (q && device) ? find_mig(*q, e.pci_bus_id, *device) : nullptr;
    if (!mig || !mig->total_bytes) {
      estimate_from_name(e);
      continue;
    }
    // A device listed from -q itself carries that provenance already.
    if (std::find(e.provenance.begin(), e.provenance.end(), q_provenance) == e.provenance.end())
      e.provenance.push_back(q_provenance);
    e.partition->gpu_instance_id = mig->gpu_instance;
    e.partition->compute_instance_id = mig->compute_instance;
    if (mig->gpu_instance) {
      auto [at, first] = holder.emplace(std::pair{e.pci_bus_id, *mig->gpu_instance}, e.physical_id);
      if (!first) {
        e.memory.total_bytes.reset();
        e.memory.free_bytes.reset();
        e.memory.source = "shares GPU instance " + std::to_string(*mig->gpu_instance) +
                          "'s memory with " + at->second +
                          " (one memory for its compute instances; counted there)";
        continue;
      }
    }
    e.memory.total_bytes = mig->total_bytes;
    e.memory.free_bytes = mig->free_bytes;
    e.memory.source = "nvidia-smi -q (the MIG device's shared FB memory";
    if (mig->gpu_instance)
      e.memory.source += ", GPU instance " + std::to_string(*mig->gpu_instance);
    e.memory.source += ")";
  }
}

bool is_superchip_gpu(std::uint16_t device_id) {
  switch (device_id) {
    case 0x2342:  // GH200 480GB (96 GB HBM3)
    case 0x2348:  // GH200 144GB HBM3e
    case 0x2941:  // GB200
      return true;
    default:
      return false;
  }
}

void addressing_from_kernel(const std::vector<KernelGpu>& kernel, const std::vector<Entry>& entries,
                            AddressingModes& modes) {
  for (const auto& e : entries) {
    if (e.partition || e.pci_bus_id.empty() || modes.count(e.pci_bus_id)) continue;
    for (const auto& gpu : kernel) {
      if (gpu.address != e.pci_bus_id) continue;
      if (gpu.numa_status && gpu.numa_status->node) {
        modes[e.pci_bus_id] = {
            "ATS",
            "its memory is NUMA node " + std::to_string(*gpu.numa_status->node) + " (numa_status)",
            "file:" + std::string(kNvidiaProcGpus) + "/" + gpu.address + "/numa_status"};
        break;
      }
    }
    if (modes.count(e.pci_bus_id)) continue;
    if (e.pci_device_id && is_superchip_gpu(*e.pci_device_id)) {
      char id[16];
      std::snprintf(id, sizeof id, "10de:%04x", unsigned(*e.pci_device_id));
      modes[e.pci_bus_id] = {"ATS", "PCI id " + std::string(id) + ", a Grace superchip's GPU",
                             "file:" + std::string(kPciDevicesDir) + "/" + e.pci_bus_id};
    }
  }
}

void apply_addressing(const AddressingModes& modes, ProbeResult& result) {
  for (auto& e : result.entries) {
    if (e.partition || e.memory.kind != MemoryKind::discrete) continue;
    auto at = modes.find(e.pci_bus_id);
    if (at == modes.end() || at->second.mode != "ATS") continue;
    const auto note = e.memory.source.find("; reachable as ");  // the NUMA node, kept
    const std::string kept = note == std::string::npos ? "" : e.memory.source.substr(note);
    e.memory.source = "nvidia-smi (the GPU's own memory); addressing mode ATS (from " +
                      at->second.evidence + "): host memory is also reachable" + kept;
    e.provenance.push_back(at->second.provenance);
  }
}

}  // namespace hwaccel
