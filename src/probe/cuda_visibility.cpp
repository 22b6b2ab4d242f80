#include "src/probe/cuda_visibility.h"

#include <algorithm>

#include "src/probe/cuda_tool.h"
#include "src/probe/cuda_visible.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {

void cuda_apply_visible_devices(const std::optional<std::string>& visible_devices,
                                const std::optional<std::string>& device_order,
                                ProbeResult& result) {
  auto& entries = result.entries;
  // The GPUs the driver opens (ready whole GPUs) and their ready MIG devices.
  std::vector<CudaGpu> gpus;
  std::vector<std::size_t> gpu_entry;               // gpus[g] is entries[gpu_entry[g]]
  std::vector<std::vector<std::size_t>> mig_entry;  // gpus[g].mig[m] is entries[mig_entry[g][m]]
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    if (e.partition || e.status != EntryStatus::ready) continue;
    CudaGpu gpu{e.pci_bus_id, e.uuid, cuda_speed_key(e.compute_class), e.partitioned, {}};
    std::vector<std::size_t> migs;
    for (std::size_t j = 0; j < entries.size(); ++j) {
      const Entry& m = entries[j];
      if (!m.partition || m.status != EntryStatus::ready ||
          m.partition->parent_physical_id != e.physical_id)
        continue;
      gpu.mig.push_back({m.uuid, m.partition->gpu_instance_id, m.partition->compute_instance_id});
      migs.push_back(j);
    }
    gpus.push_back(std::move(gpu));
    gpu_entry.push_back(i);
    mig_entry.push_back(std::move(migs));
  }
  const auto shown = cuda_enumerate(gpus, visible_devices, device_order);
  std::vector<bool> parent_shown(entries.size(), false);
  for (std::size_t k = 0; k < shown.devices.size(); ++k) {
    const auto& d = shown.devices[k];
    const std::size_t i = d.mig ? mig_entry[d.gpu][*d.mig] : gpu_entry[d.gpu];
    entries[i].ordinal = int(k);
    parent_shown[gpu_entry[d.gpu]] = true;
  }
  if (!visible_devices) return;

  const std::string named = "CUDA_VISIBLE_DEVICES=" + printable_line(*visible_devices, 120);
  if (!shown.problem.empty()) result.warnings.push_back(cuda_warning(named + ": " + shown.problem));
  for (std::size_t i = 0; i < entries.size(); ++i) {
    Entry& e = entries[i];
    if (e.ordinal || parent_shown[i] || e.status != EntryStatus::ready) continue;
    e.status = EntryStatus::unavailable;
    std::string detail =
        "hidden by " + (visible_devices->empty() ? named + "\"\" (empty: no device)" : named);
    if (e.partition && !shown.problem.empty() && shown.stopped_at.empty())
      detail += " (" + shown.problem + ")";
    e.reason = Reason{ReasonCode::not_visible, detail};
  }
}

void cuda_settle_backend(ProbeResult& result, const std::optional<std::string>& visible_devices) {
  result.backend.ready = std::any_of(result.entries.begin(), result.entries.end(),
                                     [](const Entry& e) { return e.status == EntryStatus::ready; });
  if (result.backend.ready || result.entries.empty()) return;
  const bool all_hidden =
      std::all_of(result.entries.begin(), result.entries.end(), [](const Entry& e) {
        return e.reason && e.reason->code == ReasonCode::not_visible &&
               e.reason->detail.rfind("hidden by CUDA_VISIBLE_DEVICES", 0) == 0;
      });
  if (all_hidden && visible_devices) {
    result.backend.reason =
        Reason{ReasonCode::not_visible, "every GPU is hidden by CUDA_VISIBLE_DEVICES=" +
                                            printable_line(*visible_devices, 120)};
    return;
  }
  for (const auto& e : result.entries)
    if (e.reason && e.reason->code != ReasonCode::not_visible) {
      result.backend.reason = e.reason;
      return;
    }
  result.backend.reason = result.entries.front().reason;
}

}  // namespace hwaccel
