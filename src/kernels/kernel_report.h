// Rendering a kernel plan: `report` (Markdown, the reviewed goldens), `plan`
// (the fused decode step, one line per op) and `json` (hwaccel-kernel-plan/1).
// Deterministic bytes: everything comes sorted from the plan.
#pragma once

#include <string>

#include "src/kernels/kernel_plan.h"

namespace hwaccel::kernels {

struct ReportContext {
  std::string tree;  // the --kernels DIR as given
};

std::string render_kernel_report(const KernelPlan& plan, const ReportContext& ctx);
std::string render_kernel_plan_lines(const KernelPlan& plan, const ReportContext& ctx);
std::string render_kernel_json(const KernelPlan& plan, const ReportContext& ctx);

// Line diff for --check: "" when equal, else the first differing lines.
std::string diff_lines(const std::string& expected, const std::string& actual,
                       const std::string& expected_name);

}  // namespace hwaccel::kernels
