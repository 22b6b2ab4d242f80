// `hwaccel detect` as text: a host line, one line per backend (ready, or the
// reason it is not), one line per device, then warnings. Aligned columns,
// deterministic bytes.
#pragma once

#include <string>

#include "src/registry/detection.h"

namespace hwaccel {

std::string render_detect_text(const Detection& detection);

// 85899345920 -> "80.0 GiB"
std::string format_bytes(std::uint64_t bytes);

}  // namespace hwaccel
