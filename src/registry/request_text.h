// A request as one string, for the libraries (the CLI has flags instead):
// "cuda:1", "pci:0000:3b:00.0", "rocm", "gpu mem>=40G", "cuda,mem>=20G".
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

}  // namespace hwaccel
