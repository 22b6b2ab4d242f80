// `nvidia-smi -q`, the only place every driver answers two questions the query
// cannot: a GPU's addressing mode on drivers before the addressing_mode field
// (580), and each MIG device's own memory. Indented "Key : value" lines under
// "GPU 00000000:00:09.0" headers:
//
//   GPU 00000000:00:09.0
//       Addressing Mode                   : ATS
//       MIG Device                        (older drivers: under "MIG Devices")
//           Index                         : 0
//           GPU Instance ID               : 2
//           Compute Instance ID           : 0
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
  std::optional<std::uint64_t> total_bytes;
  std::optional<std::uint64_t> free_bytes;
};

struct NvidiaSmiQGpu {
  std::string bus_id;           // normalised, "0000:00:09.0"
  std::string addressing_mode;  // "ATS", "HMM", "None"; "" when not printed
  std::vector<NvidiaSmiQMig> mig_devices;
};

struct NvidiaSmiQ {
  std::vector<NvidiaSmiQGpu> gpus;
};

NvidiaSmiQ parse_nvidia_smi_q(std::string_view text);

}  // namespace hwaccel
