// `hwaccel cost`: the cloud instances a plan fits on, cheapest first.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/common/plan_command.h"

namespace hwaccel::cli {

struct CostArgs {
  PlanArgs plan;
  std::string instances_file;  // --instances FILE instead of the built-in list
  int top = 10;
};

void add_cost_flags(CLI::App& command, CostArgs& args);
int run_cost(const CostArgs& args);

}  // namespace hwaccel::cli
