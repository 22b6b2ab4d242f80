// The detection cache's own codec: a Detection <-> JSON, field by field, with
// one list of fields per struct that both directions walk (cache_codec.cpp), so
// what is written is what is read. It does not follow `hwaccel detect --json`:
// the report may change its document without touching the cache, and the
// other way round; kCacheSchema (detection_cache.h) versions this format.
// Wall times (timings) are not kept: they describe the run that made the cache.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/registry/detection.h"

namespace hwaccel {

nlohmann::json encode_detection(const Detection& detection);

struct DecodedDetection {
  std::optional<Detection> detection;
  // Where and what: "detection.devices[2].memory.total_bytes: expected an unsigned integer".
  std::string error;
};

// Never throws: a value of the wrong type, out of range or unknown is an error
// that names its place under `where`. A missing field keeps its default.
DecodedDetection decode_detection(const nlohmann::json& doc,
                                  const std::string& where = "detection");

}  // namespace hwaccel
