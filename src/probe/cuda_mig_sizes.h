// MIG sizes where nvidia-smi -q gave none (it failed, or its build prints no
// MIG Device blocks): the bare table's "MIG devices:" block (exact, with used
// memory), else `nvidia-smi mig -lgip` (each profile's size to 0.01 GiB, no
// free figure), else the GPU's MIG profile table (src/catalog/mig_profiles.h:
// what -lgip prints on that SKU, to the MiB). Only what none tells stays
// "estimated from the profile name". Parsers: nvidia_smi_mig.
#pragma once

#include <string>
#include <vector>

#include "src/host/host.h"
#include "src/probe/probe.h"

namespace hwaccel {

std::vector<std::string> cuda_table_argv();     // nvidia-smi
std::vector<std::string> cuda_mig_lgip_argv();  // nvidia-smi mig -lgip

// Re-sizes the MIG entries whose size is the profile name's estimate; runs
// nothing when there is none.
void cuda_mig_sizes_without_q(Host& host, ProbeResult& result);

}  // namespace hwaccel
