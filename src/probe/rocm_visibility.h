// The ROCm probe's last step: HIP's ordinals, and what this process may not use.
#pragma once

#include "src/host/host.h"
#include "src/probe/probe.h"

namespace hwaccel {

// ROCR_VISIBLE_DEVICES, then HIP_VISIBLE_DEVICES (else CUDA_VISIBLE_DEVICES),
// as rocm_visible.h reads them: each ready agent HIP shows gets its ordinal;
// with a variable set, ready entries HIP would not show become not-visible (a
// split card stays while one of its partitions is shown).
void rocm_apply_visible_devices(Host& host, ProbeResult& result);

}  // namespace hwaccel
