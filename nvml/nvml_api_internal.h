// What the C entry points of the snapshot-backed libnvidia-ml share (nvml_api.cpp
// defines these; nvml_mig_api.cpp uses them): the model of the current init and
// the checks that turn a handle back into one of its objects.
#pragma once

#include <string>
#include <string_view>

#include "nvml/nvml_abi.h"
#include "nvml/nvml_model.h"

#define NVML_API extern "C" __attribute__((visibility("default")))

// Entry points one file answers and another calls.
extern "C" {
nvmlReturn_t nvmlDeviceGetAccountingMode(nvmlDevice_t device, int* mode);
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned* milliwatts);
nvmlReturn_t nvmlDeviceGetMultiGpuBoard(nvmlDevice_t device, unsigned* multi);
nvmlReturn_t nvmlDeviceGetBoardId(nvmlDevice_t device, unsigned* id);
nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t a, nvmlDevice_t b, int* level);
nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t device, unsigned* gen);
nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t device, unsigned* gen);
}

namespace hwaccel::nvml::api {

// The model while NVML is initialised, else nullptr.
const Model* ready_model();
// The Gpu a handle points at (compared as an address, never dereferenced first),
// or the error to return.
nvmlReturn_t gpu_of(nvmlDevice_t device, const Gpu*& gpu);
nvmlDevice_t handle_of(const Gpu& gpu);
// A MIG device's whole GPU; a whole GPU itself.
const Gpu* whole_of(const Gpu* gpu);

struct BusParts {
  unsigned domain = 0, bus = 0, device = 0, function = 0;
};
bool parse_bus(const std::string& text, BusParts& parts);
// nvmlPciInfo_t of a PCI function: bus ids in NVML's two spellings, device << 16 | vendor.
// A UUID's text ("GPU-" or "MIG-" and 32 hex digits, dashes anywhere) -> its 16
// bytes, NVML's binary UUID (nvml_fabric_api.cpp).
bool uuid_bytes(std::string_view text, unsigned char (&out)[16]);
nvmlReturn_t fill_pci_of(const std::string& bus_id, std::uint16_t vendor, std::uint16_t device,
                         std::uint32_t subsystem, nvmlPciInfo_t* pci);

}  // namespace hwaccel::nvml::api
