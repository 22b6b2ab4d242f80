// Numbers read from text somebody else wrote (snapshots, specs, catalogues,
// command lines): range-checked, never a throw, never undefined behaviour.
// std::stoi and friends throw on "99999999999999999999" (which surfaced as
// "internal error: stoi"), atoi overflows; these say nullopt instead, and the
// caller turns that into an error that names the file, the place and the range.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <system_error>

namespace hwaccel {

// A whole decimal number in [lo, hi]: optional '-', then digits only (no
// spaces, no '+', no suffix); nullopt when it is not one or out of range.
inline std::optional<std::int64_t> parse_integer_in(std::string_view text, std::int64_t lo,
                                                    std::int64_t hi) {
  std::int64_t v = 0;
  if (text.empty() || text.front() == '+') return std::nullopt;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 10);
  if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
    return std::nullopt;
  return v;
}

// A finite decimal number in [lo, hi] ("0.5", "1e-3", "30"); nan, inf, hex
// floats, a leading '+' or trailing text give nullopt.
inline std::optional<double> parse_finite_in(std::string_view text, double lo, double hi) {
  double v = 0;
  if (text.empty() || text.front() == '+') return std::nullopt;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::general);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < lo ||
      v > hi)
    return std::nullopt;
  return v;
}

}  // namespace hwaccel
