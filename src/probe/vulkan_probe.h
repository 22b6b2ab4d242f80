// The Vulkan backend: one `vulkaninfo --summary` run, one entry per physical
// device. Software renderers (llvmpipe, lavapipe, SwiftShader) are listed as
// `unavailable` / no-backend: they are the CPU, not an accelerator. A device's
// PCI address is taken from AMD's deviceUUID or from the one PCI function with
// its vendor and device id, so that it shares its physical_id with the CUDA or
// ROCm entry of the same GPU (NVIDIA GPUs also match by UUID, in the registry).
#pragma once

#include "src/probe/probe.h"

namespace hwaccel {

class VulkanProbe : public Probe {
 public:
  std::string name() const override { return "vulkan"; }
  ProbeResult run(Host& host) const override;
};

}  // namespace hwaccel
