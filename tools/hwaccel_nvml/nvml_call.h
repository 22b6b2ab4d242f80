// Calling NVML through dlsym: the library handle, NVML's words for a code, and
// one call whose failure becomes an entry of the document's `errors`.
#pragma once

#include <dlfcn.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tools/hwaccel_nvml/nvml_abi.h"

namespace hwaccel_nvml {

class Nvml {
 public:
  explicit Nvml(void* library) : library_(library) {}
  template <typename Fn>
  Fn get(const char* name) const {
    return reinterpret_cast<Fn>(dlsym(library_, name));
  }
  std::string error_string(Return rc) const {
    auto fn = get<ErrorStringFn>("nvmlErrorString");
    const char* text = fn ? fn(rc) : nullptr;
    return text ? std::string(text) : "error " + std::to_string(rc);
  }

 private:
  void* library_;
};

// The call's name, its code and NVML's words for it, into `errors`.
inline void note(const Nvml& nvml, nlohmann::json& errors, const std::string& call, Return rc) {
  errors.push_back({{"call", call}, {"rc", rc}, {"error", nvml.error_string(rc)}});
}

// Calls `name` through `call(fn)`; a missing symbol is NVML_ERROR_FUNCTION_NOT_FOUND.
template <typename Fn, typename Call>
bool ask(const Nvml& nvml, nlohmann::json& errors, const char* name, Call call) {
  auto fn = nvml.get<Fn>(name);
  const Return rc = fn ? call(fn) : kErrorFunctionNotFound;
  if (rc == kSuccess) return true;
  note(nvml, errors, name, rc);
  return false;
}

}  // namespace hwaccel_nvml
