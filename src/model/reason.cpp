#include "src/model/reason.h"

#include <array>
#include <utility>

namespace hwaccel {
namespace {

constexpr std::array<std::pair<ReasonCode, std::string_view>, 10> kNames = {{
    {ReasonCode::not_compiled, "not-compiled"},
    {ReasonCode::tool_not_found, "tool-not-found"},
    {ReasonCode::driver_not_found, "driver-not-found"},
    {ReasonCode::no_device, "no-device"},
    {ReasonCode::no_backend, "no-backend"},
    {ReasonCode::probe_failed, "probe-failed"},
    {ReasonCode::timeout, "timeout"},
    {ReasonCode::permission_denied, "permission-denied"},
    {ReasonCode::reserve_exceeds_free, "reserve-exceeds-free"},
    {ReasonCode::not_visible, "not-visible"},
}};

}  // namespace

std::string_view to_string(ReasonCode code) {
  for (const auto& [c, name] : kNames)
    if (c == code) return name;
  return "probe-failed";
}

std::optional<ReasonCode> reason_code_from_string(std::string_view text) {
  for (const auto& [c, name] : kNames)
    if (name == text) return c;
  return std::nullopt;
}

}  // namespace hwaccel
