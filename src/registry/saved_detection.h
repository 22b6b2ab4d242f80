// Reading back a saved `hwaccel detect --json` (hwaccel-detect/1) or
// `hwaccel devices --json` (hwaccel-devices/1) document, so that reserve,
// selection and requests can be re-applied without touching the machine.
// Older /1 documents without newer fields load with defaults; another major
// version is refused.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/registry/detection.h"

namespace hwaccel {

struct SavedDetection {
  std::optional<Detection> detection;
  std::string error;  // "devices[2].memory.total_bytes: expected a number or null"
};

// Entries a devices document refused for its reserve are restored to ready, so
// the reserve in force now decides.
SavedDetection detection_from_json(const nlohmann::json& doc);
SavedDetection detection_from_json_text(const std::string& text);

}  // namespace hwaccel
