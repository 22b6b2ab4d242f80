// Which AMD GPUs a HIP program sees, and at which ordinals: two lists applied
// in turn. ROCR_VISIBLE_DEVICES (the ROCr runtime, first) picks from the GPU
// agents in KFD order; HIP_VISIBLE_DEVICES (or, when it is unset,
// CUDA_VISIBLE_DEVICES, which HIP also reads) then picks from what ROCr left,
// its indices counting in that smaller list. Each entry is an index or "GPU-"
// and a unique prefix of a UUID. As with CUDA, the first entry that names no
// device ends its list, and an empty value shows no device; a device named twice
// ends the list there too (neither runtime documents this case). A compute
// partition (CPX...) is an agent of its own; the card it splits is not.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace hwaccel {

struct RocmEnumeration {
  std::vector<std::size_t> devices;  // devices[k] (an index into the agents) is HIP ordinal k
  std::string problem;               // "ROCR_VISIBLE_DEVICES=...: \"x\" names no device; ..."
};

// `agents`: each agent's UUID ("GPU-..."; "" when unknown), in KFD order.
RocmEnumeration rocm_enumerate(const std::vector<std::string>& agents,
                               const std::optional<std::string>& rocr_visible_devices,
                               const std::optional<std::string>& hip_visible_devices,
                               const std::optional<std::string>& cuda_visible_devices);

}  // namespace hwaccel
