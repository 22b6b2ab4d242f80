// A device's PCIe link as sysfs reports it, and what it carries. Bandwidths
// are GB/s (10^9 bytes per second) in ONE direction, after line encoding.
#pragma once

#include <optional>
#include <string>

namespace hwaccel {

struct PcieLinkState {
  std::optional<double> gt_per_s;      // 16.0 for "16.0 GT/s PCIe"
  std::optional<int> width;            // lanes: 16 for "16"
  std::optional<int> generation;       // 4 for 16 GT/s; from the speed
  std::optional<double> gbytes_per_s;  // per direction; needs speed and width
};

struct PcieLink {
  PcieLinkState current;  // current_link_speed / current_link_width
  PcieLinkState max;      // max_link_speed / max_link_width
  std::string source;     // "/sys/bus/pci/devices/0000:1b:00.0"

  // Carrying less than the max: a GPU idling at a lower rate (normal), a x16
  // card in a x8 slot, a link that fell back after errors. Not by itself a fault.
  bool below_max() const {
    return current.gbytes_per_s && max.gbytes_per_s && *current.gbytes_per_s < *max.gbytes_per_s;
  }
};

}  // namespace hwaccel
