// The roofline picture of a plan: the roofs of the device it runs on first
// (bandwidth, and a compute roof per format the catalogue gives a peak for),
// and the plan's decode and prefill steps as points. The points are the whole
// plan's FLOPs over its bytes (intensity) and its FLOPs per second averaged
// over its devices, as the estimate computes them.
#pragma once

#include <string>

#include "src/plan/planner.h"
#include "src/report/roofline_svg.h"

namespace hwaccel {

struct PlanRoofline {
  RooflineChart chart;
  std::string error;  // why no chart: an unknown device, no estimate
};

PlanRoofline plan_roofline(const plan::PlanResult& result, const plan::PlanRequest& request,
                           const plan::DeviceSet& set, const plan::Catalogue& catalogue);

}  // namespace hwaccel
