// `hwaccel detect` as text: a host line, one line per backend (ready, or the
// reason it is not), one line per device, then warnings; with `verbose`, per
// device details and the topology too. Aligned columns, deterministic bytes.
#pragma once

#include <string>

#include "src/registry/detection.h"

namespace hwaccel {

struct DetectTextOptions {
  // -v: a details table per device (physical id, NUMA node, CPU affinity,
  // partitions, where the memory figures came from) and the links between
  // devices as a matrix per backend.
  bool verbose = false;
};

std::string render_detect_text(const Detection& detection, const DetectTextOptions& options = {});

// 85899345920 -> "80.0 GiB"
std::string format_bytes(std::uint64_t bytes);

}  // namespace hwaccel
