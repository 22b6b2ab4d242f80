// The pieces of a gres.conf line: the GRES Type (the catalogue's short name),
// Cores= from a device's CPU affinity, and File= ranges ("/dev/nvidia[0-7]").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/model/entry.h"

namespace hwaccel {

// The catalogue's SKU id without its form factor: h100-sxm -> "h100",
// a100-80gb-pcie -> "a100", mi300x, gaudi3, tpu_v5e, m2_ultra; a device the
// catalogue does not know by its code name ("(Strix Halo)" -> strix_halo), else
// gres_type() (device_files.h).
std::string slurm_type(const Entry& entry);

// "0-55,112-167" on a 224-CPU host -> "0-55": Slurm's Cores= counts cores, and
// Linux numbers the second hardware thread of core N as N + cpus/2. Empty when
// the affinity is unknown or unreadable.
std::string slurm_cores(const std::string& affinity, std::int64_t cpus);

// Paths with a trailing number folded into ranges per prefix; paths whose
// number does not read back as written ("07", 20 digits) stay on their own.
std::vector<std::string> slurm_file_ranges(const std::vector<std::string>& files);

}  // namespace hwaccel
