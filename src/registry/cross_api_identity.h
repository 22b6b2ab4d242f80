// Joins entries that different backends report for the same physical device
// when the probes could not (a probe never sees another probe's results):
// NVIDIA's Vulkan deviceUUID is the GPU UUID that nvidia-smi prints, so a Vulkan
// entry with the UUID of a CUDA entry takes that entry's physical_id.
#pragma once

#include <vector>

#include "src/model/entry.h"

namespace hwaccel {

void join_entries_by_uuid(std::vector<Entry>& entries);

}  // namespace hwaccel
