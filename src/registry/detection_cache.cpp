#include "src/registry/detection_cache.h"

#include <cctype>
#include <nlohmann/json.hpp>

#include "src/registry/cache_codec.h"

namespace hwaccel {

std::optional<std::int64_t> parse_ttl(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0 || digits > 9) return std::nullopt;
  std::int64_t n = std::stoll(text.substr(0, digits));
  std::string unit = text.substr(digits);
  if (unit.empty() || unit == "s") return n;
  if (unit == "m") return n * 60;
  if (unit == "h") return n * 3600;
  if (unit == "d") return n * 86400;
  return std::nullopt;
}

std::optional<std::int64_t> parse_rfc3339_utc(const std::string& t) {
  // YYYY-MM-DDTHH:MM:SSZ (fractions of a second are ignored)
  if (t.size() < 20 || t[4] != '-' || t[7] != '-' || (t[10] != 'T' && t[10] != 't') ||
      t[13] != ':' || t[16] != ':' || (t.back() != 'Z' && t.back() != 'z'))
    return std::nullopt;
  auto num = [&](std::size_t at, std::size_t len) -> std::optional<int> {
    int v = 0;
    for (std::size_t i = at; i < at + len; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(t[i]))) return std::nullopt;
      v = v * 10 + (t[i] - '0');
    }
    return v;
  };
  auto y = num(0, 4), mo = num(5, 2), d = num(8, 2), h = num(11, 2), mi = num(14, 2),
       s = num(17, 2);
  if (!y || !mo || !d || !h || !mi || !s || *mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 ||
      *mi > 59 || *s > 60)
    return std::nullopt;
  namespace c = std::chrono;
  const c::year_month_day date{c::year{*y}, c::month{unsigned(*mo)}, c::day{unsigned(*d)}};
  if (!date.ok()) return std::nullopt;
  const auto midnight = c::sys_days(date).time_since_epoch();
  return std::int64_t(c::duration_cast<c::seconds>(midnight).count()) + *h * 3600 + *mi * 60 + *s;
}

std::string encode_cache(const Detection& d, const std::string& key,
                         const std::string& written_at) {
  nlohmann::json doc;
  doc["schema"] = kCacheSchema;
  doc["version"] = HWACCEL_VERSION;
  doc["key"] = key;
  doc["written_at"] = written_at;
  doc["detection"] = encode_detection(d);
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

CacheVerdict judge_cache(const std::string& text, const std::string& key, std::int64_t ttl_s,
                         const std::string& now) {
  CacheVerdict v;
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    v.why_not = "corrupt: not JSON at byte " + std::to_string(e.byte);
    return v;
  }
  if (!doc.is_object()) {
    v.why_not = "corrupt: not a JSON object";
    return v;
  }
  // value("schema", "") throws on a non-string (type_error 302): compare the value itself.
  if (!doc.contains("schema") || doc["schema"] != kCacheSchema) {
    v.why_not = "foreign: schema is not " + std::string(kCacheSchema);
    return v;
  }
  if (!doc.contains("version") || doc["version"] != HWACCEL_VERSION) {
    v.why_not = "foreign: written by another hwaccel version";
    return v;
  }
  if (!doc.contains("key") || doc["key"] != key) {
    v.why_not = "foreign: made for other backends (" +
                (doc.contains("key") && doc["key"].is_string() ? doc["key"].get<std::string>()
                                                               : std::string("?")) +
                ")";
    return v;
  }
  auto written = doc.contains("written_at") && doc["written_at"].is_string()
                     ? parse_rfc3339_utc(doc["written_at"].get<std::string>())
                     : std::nullopt;
  auto current = parse_rfc3339_utc(now);
  if (!written) {
    v.why_not = "corrupt: no written_at time";
    return v;
  }
  if (!current) {
    v.why_not = "stale: this host has no clock to age it by";
    return v;
  }
  v.age_s = *current - *written;
  if (v.age_s < 0) {
    v.why_not = "stale: written " + std::to_string(-v.age_s) + " s in the future (clock changed)";
    return v;
  }
  if (v.age_s > ttl_s) {
    v.why_not = "stale: " + std::to_string(v.age_s) + " s old, TTL " + std::to_string(ttl_s) + " s";
    return v;
  }
  if (!doc.contains("detection")) {
    v.why_not = "corrupt: no detection";
    return v;
  }
  auto saved = decode_detection(doc["detection"]);
  if (!saved.detection) {
    v.why_not = "corrupt: " + saved.error;
    return v;
  }
  v.detection = std::move(saved.detection);
  return v;
}

void mark_cached(Detection& d, std::int64_t age_s, const std::string& path) {
  const std::string age = std::to_string(age_s) + " s old";
  for (auto& e : d.entries)
    if (e.memory.free_bytes) e.memory.source += " (cached, " + age + ")";
  d.warnings.push_back({"host", "detection from the cache " + path + ", " + age +
                                    ": free memory figures are that old"});
}

}  // namespace hwaccel
