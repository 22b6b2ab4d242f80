// `nvidia-smi nvlink -s`: per GPU, its NVLinks and their speeds.
//
//   GPU 0: NVIDIA H200 (UUID: GPU-...)
//   	 Link 0: 26.562 GB/s
//   	 Link 1: <inactive>
//
// A GPU in MIG mode prints "Nvlink queries are not supported ..." instead.
#pragma once

#include <string_view>
#include <vector>

namespace hwaccel {

struct NvlinkStatus {
  int gpu = 0;           // nvidia-smi's index
  int active_links = 0;  // links with a speed
};

std::vector<NvlinkStatus> parse_nvidia_smi_nvlink(std::string_view text);

}  // namespace hwaccel
