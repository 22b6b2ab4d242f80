#include "cli/common/plan_svg.h"

#include <iostream>

#include "cli/common/exit_codes.h"
#include "cli/common/output_file.h"
#include "src/report/plan_roofline.h"

namespace hwaccel::cli {

int write_plan_svg(const std::string& path, bool force, const plan::PlanResult& result,
                   const plan::PlanRequest& request, const plan::DeviceSet& set,
                   const plan::Catalogue& catalogue) {
  PlanRoofline chart = plan_roofline(result, request, set, catalogue);
  RooflineSvg svg;
  if (chart.error.empty()) svg = render_roofline_svg(chart.chart);
  const std::string& why_not = chart.error.empty() ? svg.error : chart.error;
  if (!why_not.empty()) {
    std::cerr << "error: --svg " << path << ": no roofline: " << why_not << " (nothing written)\n";
    return kExitCannotWrite;
  }
  if (auto why =
          write_file_atomically(path, svg.svg, force ? ExistingFile::replace : ExistingFile::keep);
      !why.empty()) {
    std::cerr << "error: --svg: " << why << "\n";
    return kExitCannotWrite;
  }
  return kExitOk;
}

}  // namespace hwaccel::cli
