// The Qualcomm Cloud AI backend (AI 100, AI 080):
//
//   1. /sys/bus/pci/devices/*      Qualcomm (0x17cb) functions with id 0xa100
//                                  (AI 100) or 0xa080 (AI 080), the ids of the
//                                  kernel's qaic driver (drivers/accel/qaic);
//                                  Qualcomm's Wi-Fi and modem functions are skipped.
//   2. /sys/class/accel/accelN     the qaic driver's accel devices -> /dev/accel/accelN;
//      /sys/class/qaic             the out-of-tree driver's class, on older SDKs.
//   3. /opt/qti-aic/tools/qaic-util -q   where the platform SDK installs it (not on
//                                  PATH); run only when 1 or 2 found something:
//                                  status, NSPs, DRAM per device.
//
// Without qaic-util a card bound to qaic whose node opens is ready with memory and
// NSPs unknown; a card with no driver is driver-not-found.
#pragma once

#include <string>
#include <vector>

#include "src/probe/probe.h"

namespace hwaccel {

std::vector<std::string> qaic_util_argv();

class QualcommProbe : public Probe {
 public:
  std::string name() const override { return "qualcomm"; }
  ProbeResult run(Host& host) const override;
};

}  // namespace hwaccel
