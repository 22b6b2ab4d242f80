// The CUDA probe's last step: what this process may not use, and the backend
// line once the entries are known.
#pragma once

#include <optional>
#include <string>

#include "src/probe/probe.h"

namespace hwaccel {

// CUDA's numbering (cuda_visible.h): each ready entry CUDA would enumerate
// gets its ordinal. With CUDA_VISIBLE_DEVICES set, ready entries CUDA would not
// show become unavailable, not-visible, naming the variable (a MIG-split GPU
// stays while one of its MIG devices is shown); unset, every entry stays ready
// and only the MIG devices beyond the one CUDA shows lack an ordinal (a program
// reaches them by naming their UUID).
void cuda_apply_visible_devices(const std::optional<std::string>& visible_devices,
                                const std::optional<std::string>& device_order,
                                ProbeResult& result);

// Ready when any entry is; otherwise the most telling entry's reason.
void cuda_settle_backend(ProbeResult& result, const std::optional<std::string>& visible_devices);

}  // namespace hwaccel
