// `nvidia-smi -q` (or `-a`), the only place every driver answers two questions
// the query cannot: a GPU's addressing mode on drivers before the
// addressing_mode field (580), and each MIG device's own memory. It is also the
// capture people post most, so where no query was recorded it names the GPUs
// (nvidia_smi_q_gpus.h). Indented "Key : value" lines under
// "GPU 00000000:00:09.0" headers, after a few lines about the driver:
//
//   Driver Version                        : 590.48.01
//   CUDA Version                          : 13.1
//   GPU 00000000:00:09.0
//       Product Name                      : NVIDIA H100 80GB HBM3
//       Addressing Mode                   : ATS
//       MIG Mode
//           Current                       : Enabled
//       GPU UUID                          : GPU-...
//       FB Memory Usage
//           Total                         : 81559 MiB
//           Used                          : 537 MiB
//           Free                          : 81022 MiB
//       MIG Device                        (older drivers: under "MIG Devices")
//           Index                         : 0
//           GPU Instance ID               : 2
//           Compute Instance ID           : 0
//           Device Attributes
//               Shared
//                   Multiprocessor count  : 60
//           Shared FB Memory Usage        (older drivers: "FB Memory Usage")
//               Total                     : 40448 MiB
//               Free                      : 40423 MiB
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct NvidiaSmiQMig {
  std::optional<int> index;  // -L's "Device N"
  std::optional<int> gpu_instance;
  std::optional<int> compute_instance;
  std::optional<int> sms;  // "Multiprocessor count" (with the memory, names the profile)
  std::optional<std::uint64_t> total_bytes;
  std::optional<std::uint64_t> free_bytes;
};

struct NvidiaSmiQGpu {
  std::string bus_id;           // normalised, "0000:00:09.0"
  std::string addressing_mode;  // "ATS", "HMM", "None"; "" when not printed
  std::vector<NvidiaSmiQMig> mig_devices;
  std::string product_name;      // "NVIDIA H100 80GB HBM3"; "" when not printed
  std::string uuid;              // "GPU-..."; "" when not printed
  std::string mig_mode_current;  // "Enabled", "Disabled", "N/A"; "" when not printed
  // The whole GPU's FB Memory Usage (not BAR1's, not a MIG device's).
  std::optional<std::uint64_t> total_bytes;
  std::optional<std::uint64_t> used_bytes;
  std::optional<std::uint64_t> free_bytes;
  bool total_not_available = false;  // "Total : N/A": GB10, Jetson (the host's memory)
};

struct NvidiaSmiQ {
  std::string driver_version;  // "590.48.01"; "" when not printed
  std::string cuda_version;    // "13.1"; "" when not printed
  std::vector<NvidiaSmiQGpu> gpus;
};

NvidiaSmiQ parse_nvidia_smi_q(std::string_view text);

}  // namespace hwaccel
