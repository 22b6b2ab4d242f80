// The Apple backend: on macOS (facts.os darwin) the Metal GPUs that
// `system_profiler SPDisplaysDataType -json` lists and, on Apple silicon, the
// Neural Engine as an entry of its own; memory is the unified RAM of
// `sysctl -n hw.memsize` with Metal's working-set limit. On Linux, an Apple
// device tree (Asahi) gives the SoC; its GPU is usable when the asahi DRM
// driver holds it. Every other host: no-device.
#pragma once

#include "src/probe/probe.h"

namespace hwaccel {

class AppleProbe : public Probe {
 public:
  std::string name() const override { return "apple"; }
  ProbeResult run(Host& host) const override;
};

}  // namespace hwaccel
