#include "src/probe/cuda_fabric.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "src/probe/nvidia_smi_nvlink.h"
#include "src/probe/pci_bus.h"

namespace hwaccel {

std::vector<std::string> cuda_nvlink_argv() {
  return {"nvidia-smi", "nvlink", "-s"};
}

std::size_t add_fabric_from_bus(Host& host, ProbeResult& result) {
  std::vector<const Entry*> gpus;
  for (const auto& e : result.entries)
    if (!e.partition && e.status == EntryStatus::ready) gpus.push_back(&e);
  if (gpus.size() < 2 || !result.links.empty()) return 0;

  std::vector<PciDevice> switches;
  for (auto& d : pci_devices_of_vendor(host, 0x10de))
    if (d.base_class() == 0x06 && d.sub_class() == 0x80) switches.push_back(std::move(d));
  if (switches.empty()) return 0;

  char id[16];
  std::snprintf(id, sizeof id, "10de:%04x", unsigned(switches.front().device));
  std::string source = "file:" + std::string(kPciDevicesDir) + " (" +
                       std::to_string(switches.size()) + " NVSwitch bridge" +
                       (switches.size() == 1 ? "" : "s") + ", " + id + ")";
  std::map<int, int> active;  // nvidia-smi index -> active links
  const ToolRun run = host.run(cuda_nvlink_argv());
  if (run.ok()) {
    for (const auto& gpu : parse_nvidia_smi_nvlink(run.out))
      if (gpu.active_links > 0) active[gpu.gpu] = gpu.active_links;
    if (!active.empty()) source += "; tool:nvidia-smi nvlink -s";
  }
  for (std::size_t i = 0; i < gpus.size(); ++i)
    for (std::size_t j = i + 1; j < gpus.size(); ++j) {
      Link l;
      l.a = std::min(gpus[i]->physical_id, gpus[j]->physical_id);
      l.b = std::max(gpus[i]->physical_id, gpus[j]->physical_id);
      l.kind = "nvlink";
      auto a = active.find(gpus[i]->index), b = active.find(gpus[j]->index);
      if (a != active.end() && b != active.end()) l.lanes = std::min(a->second, b->second);
      l.source = source;
      result.links.push_back(std::move(l));
    }
  std::sort(result.links.begin(), result.links.end());
  return switches.size();
}

}  // namespace hwaccel
