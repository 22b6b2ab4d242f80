#include "src/probe/cuda_mig_list.h"

#include "src/probe/cuda_kernel_entries.h"
#include "src/probe/cuda_tool.h"
#include "src/probe/nvidia_smi_list.h"

namespace hwaccel {

void cuda_add_mig_instances(const ToolRun& run, ProbeResult& result) {
  if (!run.ok()) {
    result.warnings.push_back(cuda_warning("nvidia-smi -L failed (" +
                                           cuda_reason_text(cuda_run_reason(run)) +
                                           "); MIG instances, if any, are not listed"));
    return;
  }
  auto list = parse_nvidia_smi_list(run.out);
  for (const auto& problem : list.problems)
    result.warnings.push_back(cuda_warning("nvidia-smi -L: " + problem));
  cuda_add_listed_mig(list, result);
}

void cuda_add_listed_mig(const NvidiaSmiList& list, ProbeResult& result,
                         const std::string& provenance) {
  const std::size_t whole = result.entries.size();
  int index = cuda_next_index(result.entries);
  for (const auto& listed : list.gpus) {
    if (listed.mig_devices.empty()) continue;
    Entry* parent = nullptr;
    for (std::size_t i = 0; i < whole; ++i)
      if (result.entries[i].index == listed.index) parent = &result.entries[i];
    if (!parent) {
      result.warnings.push_back(
          cuda_warning(provenance.substr(5) + " lists MIG devices under GPU " +
                       std::to_string(listed.index) + ", which the query did not list; skipped"));
      continue;
    }
    parent->partitioned = true;
    const Entry parent_copy = *parent;  // push_back below may move the vector
    const std::string parent_key =
        parent_copy.pci_bus_id.empty() ? parent_copy.physical_id : parent_copy.pci_bus_id;
    for (const auto& mig : listed.mig_devices) {
      Entry entry;
      entry.backend = "cuda";
      entry.api = std::string(kCudaTool);
      entry.index = index++;
      entry.physical_id = "mig:" + parent_key + "/" + std::to_string(mig.device);
      entry.name = parent_copy.name + " MIG " +
                   (mig.profile.empty() ? "device " + std::to_string(mig.device) : mig.profile);
      entry.vendor = "NVIDIA";
      entry.pci_vendor_id = parent_copy.pci_vendor_id;
      entry.pci_device_id = parent_copy.pci_device_id;
      entry.pci_bus_id = parent_copy.pci_bus_id;
      entry.uuid = mig.uuid;
      entry.type = DeviceType::gpu;
      entry.memory.kind = MemoryKind::discrete;
      // The size: apply_mig_memory, once nvidia-smi -q has been asked.
      entry.compute_class = parent_copy.compute_class;
      entry.driver_version = parent_copy.driver_version;
      entry.status = EntryStatus::ready;
      entry.provenance.push_back(provenance);
      entry.partition = Partition{mig.profile, parent_copy.physical_id, parent_copy.index, {}, {}};
      entry.numa_node = parent_copy.numa_node;
      entry.cpu_affinity = parent_copy.cpu_affinity;
      result.entries.push_back(std::move(entry));
    }
  }
}

}  // namespace hwaccel
