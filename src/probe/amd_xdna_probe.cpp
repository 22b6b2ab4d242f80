#include "src/probe/amd_xdna_probe.h"

#include "src/probe/accel_npu_scan.h"

namespace hwaccel {

ProbeResult AmdXdnaProbe::run(Host& host) const {
  NpuFamily family;
  family.backend = "amd_xdna";
  family.label = "AMD XDNA NPU";
  family.pci_vendor = 0x1022;
  family.vendor = "AMD";
  family.drivers = {"amdxdna"};
  family.model = [](std::uint16_t device, std::optional<std::uint8_t> revision) {
    return find_amd_npu(device, revision);
  };
  return scan_accel_npus(host, family);
}

}  // namespace hwaccel
