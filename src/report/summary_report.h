// `hwaccel detect --summary`: a few lines (or the "hwaccel-summary/1" JSON
// document) for a dashboard or a shell prompt: devices per family, the best
// device, memory, warnings.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "src/registry/detection.h"
#include "src/registry/summary.h"

namespace hwaccel {

inline constexpr const char* kSummarySchema = "hwaccel-summary/1";

std::string render_summary_text(const Detection& detection, const Summary& summary);
nlohmann::json summary_to_json(const Detection& detection, const Summary& summary);

}  // namespace hwaccel
