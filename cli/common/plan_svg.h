// `hwaccel plan --svg FILE`: the plan's roofline picture written to FILE.
#pragma once

#include <string>

#include "src/plan/planner.h"

namespace hwaccel::cli {

// Writes the chart atomically; an existing FILE is replaced only with
// `force`. Returns an exit code (kExitOk, kExitCannotWrite) and says why on
// stderr.
int write_plan_svg(const std::string& path, bool force, const plan::PlanResult& result,
                   const plan::PlanRequest& request, const plan::DeviceSet& set,
                   const plan::Catalogue& catalogue);

}  // namespace hwaccel::cli
