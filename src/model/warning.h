// A warning: something the user should know that did not stop detection
// (a truncated tool output, a field an old driver rejected, a replay miss).
#pragma once

#include <string>

namespace hwaccel {

struct Warning {
  std::string backend;  // "cpu", "cuda", ...; "host" for host-level notes
  std::string message;

  friend bool operator==(const Warning&, const Warning&) = default;
  friend auto operator<=>(const Warning&, const Warning&) = default;
};

}  // namespace hwaccel
