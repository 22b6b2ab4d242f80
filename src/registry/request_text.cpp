#include "src/registry/request_text.h"

#include "src/registry/backends.h"

namespace hwaccel {

std::string add_request_text(Request& request, const std::string& text) {
  std::string error;
  auto take = [&](const std::string& t) -> bool {
    if (t.empty()) return true;
    if (auto r = parse_requirement(t)) {
      request.requirements.push_back(*r);
      return true;
    }
    std::string name = t.rfind("backend=", 0) == 0 ? t.substr(8) : t;
    if (t.find(':') != std::string::npos) {
      if (!request.device.empty()) {
        error = "request \"" + text + "\": two devices (" + request.device + ", " + t + ")";
        return false;
      }
      request.device = t;
      return true;
    }
    if (is_known_backend(name)) {
      if (!request.backend.empty()) {
        error = "request \"" + text + "\": two backends (" + request.backend + ", " + name + ")";
        return false;
      }
      request.backend = name;
      return true;
    }
    error = "request \"" + text + "\": \"" + t +
            "\" is not a device (cuda:1, pci:ADDRESS), a backend (cuda, rocm, ...) or a "
            "requirement (gpu, npu, tpu, accelerator, mem>=SIZE)";
    return false;
  };
  std::string token;
  for (char c : text) {
    if (c == ' ' || c == ',' || c == '\t') {
      if (!take(token)) return error;
      token.clear();
    } else {
      token += c;
    }
  }
  take(token);
  return error;
}

ParsedRequest parse_request_text(const std::string& text) {
  ParsedRequest out;
  Request request;
  out.error = add_request_text(request, text);
  if (out.error.empty()) out.request = std::move(request);
  return out;
}

}  // namespace hwaccel
