#include "src/probe/cuda_query_entries.h"

#include "src/probe/cuda_tool.h"

namespace hwaccel {
namespace {

constexpr std::string_view kMeminfo = "/proc/meminfo";

std::string physical_id_of(const NvidiaSmiGpu& gpu, int index) {
  if (!gpu.pci_bus_id.empty()) return "pci:" + gpu.pci_bus_id;
  if (!gpu.uuid.empty()) return "nvidia:" + gpu.uuid;
  return "cuda:" + std::to_string(index);
}

}  // namespace

void CudaHostMemory::fill(Entry& gpu, std::vector<Warning>& warnings) {
  gpu.memory.kind = MemoryKind::unified;
  gpu.memory.total_bytes.reset();  // half a figure from nvidia-smi would mislead
  gpu.memory.free_bytes.reset();
  gpu.memory.source.clear();
  gpu.provenance.push_back("file:" + std::string(kMeminfo));
  std::string why_not;
  const auto& info = meminfo_.get(why_not);
  if (!info) {
    warnings.push_back(cuda_warning("GPU " + std::to_string(gpu.index) +
                                    " shares host memory but " + std::string(kMeminfo) +
                                    " cannot be read (" + why_not + "); memory unknown"));
    return;
  }
  gpu.memory.total_bytes = info->total_bytes;
  gpu.memory.free_bytes = info->available_bytes;
  gpu.memory.source =
      std::string(kMeminfo) + (info->available_estimated ? " (MemTotal, MemFree+Buffers+Cached)"
                                                         : " (MemTotal, MemAvailable)");
}

Entry cuda_query_entry(const NvidiaSmiGpu& gpu, int row, const std::string& provenance) {
  Entry entry;
  entry.backend = "cuda";
  entry.api = std::string(kCudaTool);
  entry.index = gpu.index.value_or(row);
  entry.physical_id = physical_id_of(gpu, entry.index);
  entry.name = gpu.name;
  entry.vendor = "NVIDIA";
  entry.pci_vendor_id = kCudaPciVendor;
  entry.pci_bus_id = gpu.pci_bus_id;
  entry.uuid = gpu.uuid;
  entry.type = DeviceType::gpu;
  entry.memory.kind = MemoryKind::discrete;
  entry.memory.total_bytes = gpu.memory_total_bytes;
  entry.memory.free_bytes = gpu.memory_free_bytes;
  entry.memory.source = std::string(kCudaTool);
  entry.compute_class = compute_class_from_cap(gpu.compute_cap);
  entry.driver_version = gpu.driver_version;
  entry.status = EntryStatus::ready;
  entry.provenance.push_back(provenance);
  return entry;
}

}  // namespace hwaccel
