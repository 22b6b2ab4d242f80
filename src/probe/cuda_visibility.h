// The CUDA probe's last step: what this process may not use, and the backend
// line once the entries are known.
#pragma once

#include <optional>
#include <string>

#include "src/probe/probe.h"

namespace hwaccel {

// CUDA_VISIBLE_DEVICES (nvidia_visible_devices): ready entries CUDA would not
// show become unavailable, not-visible, naming the variable.
void cuda_apply_visible_devices(const std::string& value, ProbeResult& result);

// Ready when any entry is; otherwise the most telling entry's reason.
void cuda_settle_backend(ProbeResult& result, const std::optional<std::string>& visible_devices);

}  // namespace hwaccel
