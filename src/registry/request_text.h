// A request as one string: "cuda:1", "pci:0000:3b:00.0", "rocm", "gpu mem>=40G",
// "cuda,mem>=20G". One grammar for the C++, C and Python APIs and the CLI's
// --require (each of whose values is such a string).
#pragma once

#include <optional>
#include <string>

#include "src/registry/selection.h"

namespace hwaccel {

struct ParsedRequest {
  std::optional<Request> request;
  std::string error;  // what was wrong and what is accepted
};

// Tokens separated by spaces or commas: at most one device (BACKEND:INDEX or
// pci:ADDRESS), at most one backend name (or backend=NAME), any requirements.
ParsedRequest parse_request_text(const std::string& text);

// Adds the tokens of `text` to `request` (what the CLI's flags already set):
// "" when they fit, else what was wrong (a second device or backend included).
std::string add_request_text(Request& request, const std::string& text);

}  // namespace hwaccel
