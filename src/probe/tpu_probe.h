// The Google TPU backend, from sysfs alone (there is no TPU tool to ask):
//
//   1. /sys/bus/pci/devices/*            Google (0x1ae0) functions whose device id
//                                        names a TPU generation (src/catalog/google_tpu_ids.h);
//                                        gVNIC, NVMe and other Google functions are skipped.
//   2. v5e, v5p, v6e, 7x: the function's driver must be vfio-pci, its
//      iommu_group link names /dev/vfio/<group>, which must be there and openable.
//   3. v2-v4: a TPU kernel driver (tpu_v4, ...) is bound; /sys/class/accel/accelN
//      whose device is the function gives /dev/accelN; /sys/module/<driver>/version
//      the driver version.
//   4. TPU_ACCELERATOR_TYPE (set on Cloud TPU VMs and GKE TPU nodes) is recorded in
//      the provenance of each chip.
//
// HBM per chip comes from the catalogue; nothing on the host reports it.
#pragma once

#include "src/probe/probe.h"

namespace hwaccel {

class TpuProbe : public Probe {
 public:
  std::string name() const override { return "tpu"; }
  ProbeResult run(Host& host) const override;
};

}  // namespace hwaccel
