// `hwaccel plan` output: a text report for people and hwaccel-plan/1 JSON.
#pragma once

#include <string>

#include "src/plan/planner.h"

namespace hwaccel {

struct PlanContext {
  std::string source;     // where the devices came from: snapshot(FILE), live, ...
  std::string catalogue;  // "built-in" or the --devices file
  std::string reserve;    // "3584 MiB (default)"
};

std::string render_plan_text(const plan::PlanResult& result, const plan::DeviceSet& set,
                             const PlanContext& context);
std::string render_plan_json(const plan::PlanResult& result, const plan::DeviceSet& set,
                             const PlanContext& context);

}  // namespace hwaccel
