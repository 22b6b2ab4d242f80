// "Which hosts can serve MODEL at QUANT?": a fleet verdict that plans on each
// host's detection with the same calls `hwaccel plan` makes (plan::build_devices
// with the host's reserve, then plan::make_plan), and names the outcome in a few
// words the aggregate can count: the plan when it fits, the shortfall (in
// power-of-two GiB buckets, so the rows stay few) when it does not.
#pragma once

#include <cstdint>
#include <string>

#include "src/plan/catalogue.h"
#include "src/plan/planner.h"
#include "src/registry/detection.h"

namespace hwaccel::sim {

// "fits: tensor x8 cuda:0-7", "does not fit: short by up to 16 GiB",
// "no plan: <why the devices could not be built>". `detection` is before the
// reserve is applied; the reserve enters through the device capacities, as in
// `hwaccel plan`. `catalogue` must outlive the call.
std::string plan_verdict(const Detection& detection, std::uint64_t reserve_bytes,
                         const plan::PlanRequest& request, const plan::Catalogue& catalogue);

// 3.2 GiB -> "up to 4 GiB"; under 1 GiB -> "under 1 GiB".
std::string shortfall_bucket(double bytes);

}  // namespace hwaccel::sim
