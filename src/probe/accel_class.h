// The kernel's accel devices as sysfs lists them (/sys/class/accel/accelN), each
// with the PCI function behind it and the driver bound to that function. Two
// families of drivers register there: the kernel's DRM accel subsystem (qaic,
// intel_vpu, amdxdna; nodes /dev/accel/accelN) and Google's TPU driver class
// (TPU v2-v4; nodes /dev/accelN, tpu-info's chip_path()).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"

namespace hwaccel {

inline constexpr const char* kAccelClassDir = "/sys/class/accel";

struct AccelClassDevice {
  std::string name;         // "accel0"
  std::string pci_address;  // "0000:00:05.0"; "" when the device is not a PCI function
  std::string driver;       // "qaic", "tpu_v4"; "" when unknown
};

// Sorted by name; empty when the class folder is absent or unreadable.
std::vector<AccelClassDevice> scan_accel_class(Host& host);

// The last path component of a sysfs link target, as a PCI address
// ("../../../0000:00:05.0" -> "0000:00:05.0"); "" when it is not one.
std::string pci_address_of_link(std::string_view target);

}  // namespace hwaccel
