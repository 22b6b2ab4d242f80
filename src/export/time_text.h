// The RFC 3339 UTC time the Host reports ("2026-11-29T15:00:00Z") as Unix
// seconds and back: Prometheus wants the one, NFD's expiry-time the other.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace hwaccel {

// Exactly YYYY-MM-DDTHH:MM:SSZ (what Host::now() gives); nullopt for anything else.
std::optional<std::int64_t> rfc3339_to_unix(const std::string& text);
std::string unix_to_rfc3339(std::int64_t seconds);

}  // namespace hwaccel
