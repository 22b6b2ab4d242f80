// `hwaccel detect --json`: the versioned document "hwaccel-detect/1"
// (docs/cli.md describes every field). Keys sorted, two-space indent.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "src/registry/detection.h"

namespace hwaccel {

inline constexpr const char* kDetectSchema = "hwaccel-detect/1";

nlohmann::json detect_to_json(const Detection& detection);
std::string render_detect_json(const Detection& detection);

}  // namespace hwaccel
