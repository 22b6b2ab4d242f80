// /opt/qti-aic/tools/qaic-util -q: the Qualcomm Cloud AI platform SDK's query.
// A few header lines, then one block per device:
//
//   LRT QC_IMAGE_VERSION: LRT.AIC.5.2.1.5.6
//   Number of devices: 8
//   QID 0
//           Status:Ready
//           PCI Address:0000:01:00.0
//           PCI Info:Processing accelerators Qualcomm Device a100
//           ...
//           Dram Total:32692 MB
//           Dram Free:32692 MB
//           ...
//           Nsp Total:16
//           Nsp Free:16
//
// (a real 8-card capture, SDK 1.5, published in krai/ck-qaic; an AEDK with 8 NSPs
// and 8116 MB reads the same). Keys are matched without case; "MB" is read as
// MiB (32692 MB on a 32 GB card only fits MiB). Anything unreadable is unknown.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct QaicDevice {
  int qid = 0;
  std::string status;       // "Ready", "Error"; "" when not printed
  std::string pci_address;  // normalised; "" when unknown
  std::string pci_info;     // "Processing accelerators Qualcomm Device a100"
  std::optional<std::uint64_t> dram_total_bytes;
  std::optional<std::uint64_t> dram_free_bytes;
  std::optional<int> nsp_total;
  std::optional<int> nsp_free;
  std::string fw_version;  // "1.5.6"
};

struct QaicUtilOutput {
  std::vector<QaicDevice> devices;
  std::vector<std::string> problems;
};

QaicUtilOutput parse_qaic_util(std::string_view text);

// "32692 MB" -> bytes (MB, KB, GB as binary units); nullopt when not a size.
std::optional<std::uint64_t> parse_qaic_size(std::string_view text);

}  // namespace hwaccel
