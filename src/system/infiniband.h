// RDMA ports from /sys/class/infiniband/DEV/ports/N/{state,rate,link_layer}:
// InfiniBand HCAs, RoCE NICs (link_layer Ethernet) and AWS EFA (link_layer
// "Unknown", devices named rdmapXsY or efa_N).
//
// Bandwidth: the rate's Gb/s / 8 per direction. SDR, DDR and QDR rates are
// signalling rates of an 8b/10b line code, so they are taken at 0.8 ("40 Gb/sec
// (4X QDR)" = 4 GB/s of data); FDR and later use 64b/66b and the kernel's
// number is already close to the data rate ("400 Gb/sec (4X NDR)" = 50 GB/s).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"
#include "src/system/system_info.h"

namespace hwaccel {

inline constexpr const char* kInfinibandDir = "/sys/class/infiniband";

// "4: ACTIVE\n" -> "ACTIVE"; "1: DOWN" -> "DOWN"; garbage -> "".
std::string parse_ib_port_state(std::string_view text);

struct IbRate {
  double gbits_per_s = 0;   // 200
  std::string width;        // "4X"; "" when the parenthesis is missing
  std::string speed;        // "HDR"; ""
  double gbytes_per_s = 0;  // per direction, encoding applied
};
// "200 Gb/sec (4X HDR)\n", "56 Gb/sec (4X FDR)", "2.5 Gb/sec (1X SDR)",
// "100 Gb/sec (4X EDR)", "10 Gb/sec (4X SDR)"; nullopt on anything else.
std::optional<IbRate> parse_ib_rate(std::string_view text);

// "0000:1b:00.0" from a device link target such as "../../../0000:1b:00.0"; "" otherwise.
std::string pci_address_from_link(std::string_view target);

// Every port of every RDMA device, sorted by device then port. No
// /sys/class/infiniband: no ports, no warning. Unreadable or garbled files
// are warnings in `warnings`.
std::vector<NetworkPort> scan_infiniband(Host& host, std::vector<Warning>& warnings);

}  // namespace hwaccel
