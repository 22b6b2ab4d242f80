// Physical-device identity: entries seen through different APIs are the same
// device when their PCI address matches; without an address, when vendor,
// normalised name and ordinal within the API match. Counting devices always
// counts physical ones.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "src/model/entry.h"

namespace hwaccel {

// "NVIDIA GeForce RTX 4090 (TM)" -> "nvidia-geforce-rtx-4090-tm"
std::string normalise_device_name(std::string_view name);

// Gives every entry without a physical_id one: "pci:<bus id>" when it has a
// bus id, else "dev:<vendor>/<name>/<ordinal among same vendor+name in its api>".
void assign_physical_ids(std::vector<Entry>& entries);

// Distinct physical devices among non-CPU entries; a partition (MIG) counts as
// its parent. With `ready_only`, only devices with at least one ready entry.
std::size_t count_physical_accelerators(const std::vector<Entry>& entries, bool ready_only);

}  // namespace hwaccel
