// CUDA_VISIBLE_DEVICES as CUDA reads it: a comma-separated list of device
// indices or UUIDs ("GPU-..." or "MIG-...", a unique prefix is enough). CUDA
// stops at the first token it cannot use: the devices listed before it are
// visible, the rest are not. An empty value hides every device.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct CudaVisibleToken {
  bool is_index = false;
  int index = 0;     // when is_index
  std::string uuid;  // "GPU-..." / "MIG-..." (possibly a prefix) otherwise
};

struct CudaVisibleDevices {
  std::vector<CudaVisibleToken> tokens;  // the usable tokens, in order
  std::string stopped_at;                // the first invalid token; "" when none
  bool stopped = false;                  // parsing ended at an invalid token
};

// Syntax only: a token is an index (decimal, no sign) or starts with "GPU-" or
// "MIG-". Whether it names a device is the probe's question (a token naming no
// device also ends the list, as in CUDA).
CudaVisibleDevices parse_cuda_visible_devices(std::string_view value);

}  // namespace hwaccel
