// NVML's bus and peer-to-peer questions answered from the topology the snapshot
// recorded (docs/nvml.md): the bus type, NVLink capabilities of a link that
// exists, NVLink peer-to-peer between two GPUs, and the infoROM check nvidia-smi
// recorded. PCIe peer-to-peer (reads, writes, atomics) depends on the IOMMU and
// ACS settings, which no snapshot holds: NOT_SUPPORTED.
#include "nvml/nvml_abi.h"
#include "nvml/nvml_api_internal.h"
#include "nvml/nvml_fields.h"
#include "nvml/nvml_model.h"

using namespace hwaccel::nvml::api;
using hwaccel::nvml::Gpu;

namespace {

constexpr int kBusTypePcie = 2;                              // NVML_BUS_TYPE_PCIE
constexpr int kCapP2pSupported = 0, kCapValid = 5;           // nvmlNvLinkCapability_t
constexpr int kP2pIndexNvlink = 2, kP2pIndexUnknown = 5;     // nvmlGpuP2PCapsIndex_t
constexpr int kP2pStatusOk = 0, kP2pStatusNotSupported = 5;  // nvmlGpuP2PStatus_t

// Whether an NVLink lane joins two whole GPUs: one to the other, or both to the
// NVSwitch fabric.
bool nvlinked(const Gpu& a, const Gpu& b) {
  const auto* model = ready_model();
  const std::size_t to = static_cast<std::size_t>(&b - model->gpus.data());
  bool a_switch = false, b_switch = false;
  for (const auto& lane : a.nvlinks) {
    if (!lane.to_switch && lane.remote == to) return true;
    a_switch = a_switch || lane.to_switch;
  }
  for (const auto& lane : b.nvlinks) b_switch = b_switch || lane.to_switch;
  return a_switch && b_switch;
}

}  // namespace

// A GPU whose PCIe link the detection read from sysfs is on PCI Express.
NVML_API nvmlReturn_t nvmlDeviceGetBusType(nvmlDevice_t device, int* type) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!type) return NVML_ERROR_INVALID_ARGUMENT;
  gpu = whole_of(gpu);
  if (!gpu->pcie_gen_current && !gpu->pcie_gen_max) return NVML_ERROR_NOT_SUPPORTED;
  *type = kBusTypePcie;
  return NVML_SUCCESS;
}

// VALID and P2P_SUPPORTED follow from the link being there; system memory access,
// atomics and SLI are not recorded (NOT_SUPPORTED).
NVML_API nvmlReturn_t nvmlDeviceGetNvLinkCapability(nvmlDevice_t device, unsigned link, int cap,
                                                    unsigned* result) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!result || cap < 0 || cap > kCapValid) return NVML_ERROR_INVALID_ARGUMENT;
  gpu = whole_of(gpu);
  if (gpu->nvlinks.empty()) return NVML_ERROR_NOT_SUPPORTED;
  if (link >= NVML_NVLINK_MAX_LINKS) return NVML_ERROR_INVALID_ARGUMENT;
  if (cap != kCapValid && cap != kCapP2pSupported) return NVML_ERROR_NOT_SUPPORTED;
  *result = link < gpu->nvlinks.size() ? 1 : 0;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetP2PStatus(nvmlDevice_t device1, nvmlDevice_t device2, int index,
                                             int* status) {
  const Gpu *a = nullptr, *b = nullptr;
  if (auto r = gpu_of(device1, a)) return r;
  if (auto r = gpu_of(device2, b)) return r;
  if (!status || index < 0 || index >= kP2pIndexUnknown) return NVML_ERROR_INVALID_ARGUMENT;
  if (index != kP2pIndexNvlink) return NVML_ERROR_NOT_SUPPORTED;
  a = whole_of(a), b = whole_of(b);
  *status = a != b && nvlinked(*a, *b) ? kP2pStatusOk : kP2pStatusNotSupported;
  return NVML_SUCCESS;
}

// nvidia-smi's inforom.checksum_validation: "valid", else a corrupted infoROM.
NVML_API nvmlReturn_t nvmlDeviceValidateInforom(nvmlDevice_t device) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  auto f = hwaccel::nvml::field_of(gpu->cells, "inforom.checksum_validation");
  if (f.status) return f.status;
  if (f.text == "valid" || f.text == "Valid") return NVML_SUCCESS;
  if (f.text == "invalid" || f.text == "Invalid") return NVML_ERROR_CORRUPTED_INFOROM;
  return NVML_ERROR_NOT_SUPPORTED;
}
