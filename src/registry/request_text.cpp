#include "src/registry/request_text.h"

#include "src/registry/backends.h"

namespace hwaccel {

ParsedRequest parse_request_text(const std::string& text) {
  ParsedRequest out;
  Request request;
  std::string token;
  auto take = [&](const std::string& t) -> bool {
    if (t.empty()) return true;
    if (auto r = parse_requirement(t)) {
      request.requirements.push_back(*r);
      return true;
    }
    std::string name = t.rfind("backend=", 0) == 0 ? t.substr(8) : t;
    if (t.find(':') != std::string::npos) {
      if (!request.device.empty()) {
        out.error = "request \"" + text + "\": two devices (" + request.device + ", " + t + ")";
        return false;
      }
      request.device = t;
      return true;
    }
    if (is_known_backend(name)) {
      if (!request.backend.empty()) {
        out.error =
            "request \"" + text + "\": two backends (" + request.backend + ", " + name + ")";
        return false;
      }
      request.backend = name;
      return true;
    }
    out.error = "request \"" + text + "\": \"" + t +
                "\" is not a device (cuda:1, pci:ADDRESS), a backend (cuda, rocm, ...) or a "
                "requirement (gpu, npu, tpu, accelerator, mem>=SIZE)";
    return false;
  };
  for (char c : text) {
    if (c == ' ' || c == ',' || c == '\t') {
      if (!take(token)) return out;
      token.clear();
    } else {
      token += c;
    }
  }
  if (!take(token)) return out;
  out.request = request;
  return out;
}

}  // namespace hwaccel
