// /proc/driver/nvidia/gpus/<bus id>/information, written by the loaded nvidia
// kernel module (nv-procfs.c): "Key: <tabs> value" lines such as
//
//   Model: 		 NVIDIA GB10
//   GPU UUID: 	 GPU-e73ebcc4-...
//   Bus Location: 	 000f:01:00.0
//   Device Minor: 	 0              (N of /dev/nvidiaN, char major 195)
//
// Present only while the module is loaded, so it names GPUs even when
// nvidia-smi is missing or its library does not match the module.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hwaccel {

struct NvidiaGpuInformation {
  std::string model;              // "" when absent
  std::string uuid;               // "" when absent or "GPU-????????-..." (not yet known)
  std::string bus_location;       // as printed, "000f:01:00.0"
  std::optional<unsigned> minor;  // "Device Minor"
};

NvidiaGpuInformation parse_nvidia_gpu_information(std::string_view text);

}  // namespace hwaccel
