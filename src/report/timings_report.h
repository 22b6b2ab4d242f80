// `hwaccel detect --timings`: how long each backend's probe took and the whole
// detection, so users see which vendor tool costs them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "src/registry/detection.h"

namespace hwaccel {

// A table: BACKEND, MS, then a total line.
std::string render_timings_text(const Detection& detection);

// {"backends": {"cuda": 0.41, ...}, "total_ms": 1.2}, milliseconds to 0.01.
nlohmann::json timings_json(const Detection& detection);

}  // namespace hwaccel
