// The detection cache's file format and rules (the reading and writing are the
// CLI's). A cache is the detection in the cache's own codec (cache_codec.h, not
// the report's document), wrapped with what it was made by and for:
//   {"schema": "hwaccel-cache/2", "version": "0.1.0", "key": "...",
//    "written_at": "2026-11-29T18:00:00Z", "detection": {...}}
// It is used only when the schema, the version and the key (the backends
// asked for) match and it is younger than the TTL; otherwise (an older cache's
// "hwaccel-cache/1" included) it is ignored with the reason and rewritten.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "src/registry/detection.h"

namespace hwaccel {

inline constexpr const char* kCacheSchema = "hwaccel-cache/2";

// "90", "90s", "15m", "2h", "1d" -> seconds; nullopt for anything else.
std::optional<std::int64_t> parse_ttl(const std::string& text);

// "2026-11-29T18:00:00Z" -> seconds since the epoch (UTC); nullopt if malformed.
std::optional<std::int64_t> parse_rfc3339_utc(const std::string& text);

std::string encode_cache(const Detection& detection, const std::string& key,
                         const std::string& written_at);

struct CacheVerdict {
  std::optional<Detection> detection;  // set when the cache may be used
  std::int64_t age_s = 0;
  // "corrupt: detection.devices[0].index: expected an integer ...", "foreign: ...",
  // "stale: 400 s old, TTL 300 s": the place, not the file (the caller names that).
  std::string why_not;
};

// `now` is RFC 3339 UTC (Host::now()).
CacheVerdict judge_cache(const std::string& text, const std::string& key, std::int64_t ttl_s,
                         const std::string& now);

// Marks free-memory figures as cached: the memory source says how old they are,
// and a warning says where the detection came from.
void mark_cached(Detection& detection, std::int64_t age_s, const std::string& path);

}  // namespace hwaccel
