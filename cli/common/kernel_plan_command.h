// `hwaccel plan --hardware ID --kernels DIR`: a kernel tree's plan for one
// device (docs/kernel-tree.md), rendered as report, plan or json, and
// optionally checked against a golden (--check FILE).
#pragma once

#include <CLI/CLI.hpp>

#include "cli/common/plan_command.h"

namespace hwaccel::cli {

void add_kernel_plan_flags(CLI::App& command, PlanArgs& args);
int run_kernel_plan(const PlanArgs& args);

}  // namespace hwaccel::cli
