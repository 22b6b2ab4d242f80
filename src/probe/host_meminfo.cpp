#include "src/probe/host_meminfo.h"

namespace hwaccel {

const std::optional<MemInfo>& HostMeminfo::get(std::string& why_not) {
  if (!read_) {
    read_ = true;
    auto text = host_.read(kProcMeminfo);
    if (text)
      info_ = parse_proc_meminfo(*text);
    else
      error_ = text.error().errno_name();
  }
  why_not = error_;
  return info_;
}

}  // namespace hwaccel
