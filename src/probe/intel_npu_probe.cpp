#include "src/probe/intel_npu_probe.h"

#include "src/probe/accel_npu_scan.h"

namespace hwaccel {

ProbeResult IntelNpuProbe::run(Host& host) const {
  NpuFamily family;
  family.backend = "intel_npu";
  family.label = "Intel NPU";
  family.pci_vendor = 0x8086;
  family.vendor = "Intel";
  family.drivers = {"intel_vpu"};
  family.model = [](std::uint16_t device, std::optional<std::uint8_t>) {
    return find_intel_npu(device);
  };
  family.misc_class_dir = "/sys/class/misc/intel_npu";
  family.misc_node = "/dev/intel_npu";
  return scan_accel_npus(host, family);
}

}  // namespace hwaccel
