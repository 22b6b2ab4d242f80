// NPUs that the kernel's compute-accelerator subsystem exposes: each
// /sys/class/accel/accelN is a device whose PCI function, ids and bound driver
// sysfs gives, with its node /dev/accel/accelN. Shared by the Intel NPU
// (intel_vpu) and AMD XDNA (amdxdna) backends; the family says which is which.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "src/catalog/npu_pci_ids.h"
#include "src/probe/probe.h"

namespace hwaccel {

struct NpuFamily {
  std::string backend;               // "intel_npu"
  std::string label;                 // "Intel NPU", for reasons
  std::uint16_t pci_vendor = 0;      // 0x8086
  std::string vendor;                // "Intel"
  std::vector<std::string> drivers;  // {"intel_vpu"}
  // The model of a device id (and revision); nullopt when not this family's NPU.
  std::function<std::optional<NpuModel>(std::uint16_t, std::optional<std::uint8_t>)> model;
  // Older kernels' misc device (/sys/class/misc/intel_npu), "" when none.
  std::string misc_class_dir;
  std::string misc_node;  // "/dev/intel_npu"
};

ProbeResult scan_accel_npus(Host& host, const NpuFamily& family);

// "accel0" -> 0; nullopt for other names.
std::optional<int> accel_node_number(std::string_view name);

}  // namespace hwaccel
