// PCIe link speed and width from sysfs (current_link_speed, current_link_width,
// max_link_speed, max_link_width under /sys/bus/pci/devices/ADDR).
//
// Bandwidth per direction = GT/s x lanes x encoding / 8 bits:
//   2.5 and 5 GT/s (Gen1/2): 8b/10b (0.8);
//   8, 16, 32 GT/s (Gen3/4/5): 128b/130b;
//   64 GT/s and up (Gen6+, PAM4 FLIT mode): 242/256 (the FLIT's payload share).
// x16 Gen4 = 31.51 GB/s, x16 Gen5 = 63.02 GB/s, x4 Gen4 = 7.88 GB/s.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"
#include "src/model/pcie_link.h"
#include "src/model/warning.h"

namespace hwaccel {

// "16.0 GT/s PCIe\n" (kernels since 5.x), "8 GT/s\n", "2.5 GT/s\n" (older) -> 16.0, 8.0, 2.5.
// "Unknown", "Unknown speed", empty or garbage -> nullopt.
std::optional<double> parse_pcie_link_speed(std::string_view text);

// "16\n" -> 16. "0" (link down) and garbage -> nullopt. Valid widths: 1..32.
std::optional<int> parse_pcie_link_width(std::string_view text);

// 2.5 -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5, 64 -> 6, 128 -> 7; otherwise nullopt.
std::optional<int> pcie_generation(double gt_per_s);

// The line-encoding efficiency for a signalling rate (see above).
double pcie_encoding(double gt_per_s);

// Per-direction GB/s, rounded to 0.01.
double pcie_gbytes_per_s(double gt_per_s, int width);

// Both states from their four attribute texts (a missing one is nullopt).
PcieLinkState pcie_link_state(std::optional<std::string_view> speed,
                              std::optional<std::string_view> width);

// Reads the four attributes of one PCI function. nullopt when none of them is
// there (a legacy PCI device, a Hyper-V vPCI device, a device this snapshot
// does not describe). An attribute that exists but cannot be read or parsed is a
// warning ("system" backend) naming the file.
std::optional<PcieLink> read_pcie_link(Host& host, const std::string& bus_id,
                                       std::vector<Warning>& warnings);

// The text of a link for reports: "Gen4 x16 (31.51 GB/s)"; with the max when the
// link trained below it: "Gen4 x8 (15.75 GB/s; max Gen4 x16, 31.51 GB/s)".
std::string pcie_link_text(const PcieLink& link);

}  // namespace hwaccel
