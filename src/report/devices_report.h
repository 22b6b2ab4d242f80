// `hwaccel devices` and `hwaccel select`: the detection block plus the reserve
// and the choice, as text or as the versioned JSON documents
// "hwaccel-devices/1" and "hwaccel-select/1".
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/registry/detection.h"
#include "src/registry/reserve.h"

namespace hwaccel {

inline constexpr const char* kDevicesSchema = "hwaccel-devices/1";
inline constexpr const char* kSelectSchema = "hwaccel-select/1";

struct Choice {
  std::optional<std::size_t> entry;  // into detection.entries; none when refused
  std::string reason;
  // Where the detection came from: "live", "root(DIR)", "snapshot(FILE)" or
  // "fixture(FILE)" for a saved detect/devices document (--from).
  std::string source = "live";
};

std::string render_devices_text(const Detection& d, const Reserve& reserve, const Choice& choice);
nlohmann::json devices_to_json(const Detection& d, const Reserve& reserve, const Choice& choice);
std::string render_devices_json(const Detection& d, const Reserve& reserve, const Choice& choice);

// The choice alone: "cuda:0" (text), or a small JSON document for programs.
std::string render_select_text(const Detection& d, const Choice& choice);
std::string render_select_json(const Detection& d, const Reserve& reserve, const Choice& choice);

}  // namespace hwaccel
