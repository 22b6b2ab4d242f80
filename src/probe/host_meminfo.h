// /proc/meminfo read through the Host at most once per probe run, for devices
// that share the host's memory (GB10, Jetson, AMD APUs).
#pragma once

#include <optional>
#include <string>

#include "src/host/host.h"
#include "src/probe/proc_meminfo.h"

namespace hwaccel {

inline constexpr const char* kProcMeminfo = "/proc/meminfo";

class HostMeminfo {
 public:
  explicit HostMeminfo(Host& host) : host_(host) {}

  // The figures, or nullopt with `why_not` set to the errno name ("EACCES").
  const std::optional<MemInfo>& get(std::string& why_not);

 private:
  Host& host_;
  bool read_ = false;
  std::optional<MemInfo> info_;
  std::string error_;
};

}  // namespace hwaccel
