// The PCI bus as sysfs shows it: what devices are there, and which driver is
// bound, whether or not any vendor tool works. Probes use it to list hardware
// whose driver is missing or broken.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/host/host.h"
#include "src/model/reason.h"

namespace hwaccel {

inline constexpr const char* kPciDevicesDir = "/sys/bus/pci/devices";

struct PciDevice {
  std::string address;  // "0000:01:00.0", as the folder is named (lowercase hex)
  std::uint16_t vendor = 0;
  std::uint16_t device = 0;
  std::optional<std::uint16_t> subsystem_vendor;
  std::optional<std::uint16_t> subsystem_device;
  std::uint32_t class_code = 0;  // 0x030200: base class 0x03, subclass 0x02, prog-if 0x00
  std::string driver;            // bound driver's name ("nvidia", "amdgpu", "vfio-pci"); "" if none
  std::optional<int> numa_node;  // absent, or -1 in sysfs (no affinity), gives nullopt

  std::uint8_t base_class() const { return std::uint8_t(class_code >> 16); }
  std::uint8_t sub_class() const { return std::uint8_t(class_code >> 8); }
  // Display controllers: VGA (0x0300), XGA (0x0301), 3D (0x0302), other (0x0380).
  bool is_display() const { return base_class() == 0x03; }
  // Processing accelerators (0x1200), e.g. Gaudi, TPU, inference ASICs.
  bool is_accelerator() const { return base_class() == 0x12; }
};

// Every device under /sys/bus/pci/devices with a readable vendor and device id,
// sorted by address. A missing folder (no PCI, a container) gives an empty list.
std::vector<PciDevice> scan_pci_bus(Host& host);

// " (/sys/bus/pci/devices cannot be listed: ENOENT)" when the bus folder cannot be
// listed, else "": for a no-device detail that must not claim an empty bus.
std::string pci_bus_unlisted_note(Host& host);

// Functions whose folder has a readable `class` but no vendor file (a partial
// copy of sysfs, e.g. some hwloc-gather trees): vendor 0, device from
// `uevent`'s PCI_ID when it is there, else 0. A probe claims one only with other
// evidence that it is its vendor's (its driver's own files).
std::vector<PciDevice> pci_functions_without_vendor(Host& host);

// Only those of one vendor (0x10de NVIDIA, 0x1002 AMD, ...).
std::vector<PciDevice> pci_devices_of_vendor(Host& host, std::uint16_t vendor);

// A file that could have shown one of `vendor`'s devices but could not be read
// for a reason other than its absence (EACCES, ELOOP, EIO): the bus folder, a
// function's vendor file, or the device file of one of the vendor's functions.
struct PciUnreadable {
  std::string path;
  Error error;
};
std::vector<PciUnreadable> pci_unreadable_for_vendor(Host& host, std::uint16_t vendor);

// For a probe that found none of its devices: a device we cannot read is not an
// absent device. permission-denied (EACCES, EPERM) or probe-failed (anything
// else) naming the first unreadable file and what could be there (`what`: "a
// Google TPU"); nullopt when every file that mattered was read or is absent.
std::optional<Reason> pci_unreadable_reason(Host& host, std::uint16_t vendor,
                                            std::string_view what);

// Pure parsers of the sysfs attribute formats ("0x10de\n", "0x030200\n", "-1\n").
std::optional<std::uint32_t> parse_sysfs_hex(std::string_view text);
std::optional<int> parse_sysfs_numa_node(std::string_view text);

}  // namespace hwaccel
