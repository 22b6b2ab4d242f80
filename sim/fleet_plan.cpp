#include "sim/fleet_plan.h"

#include "src/plan/devices.h"

namespace hwaccel::sim {

std::string shortfall_bucket(double bytes) {
  const double gib = bytes / double(std::uint64_t{1} << 30);
  if (gib < 1) return "under 1 GiB";
  std::uint64_t bound = 1;
  while (double(bound) < gib && bound < (std::uint64_t{1} << 40)) bound *= 2;
  return "up to " + std::to_string(bound) + " GiB";
}

std::string plan_verdict(const Detection& detection, std::uint64_t reserve_bytes,
                         const plan::PlanRequest& request, const plan::Catalogue& catalogue) {
  plan::DeviceOptions options;
  options.reserve_bytes = double(reserve_bytes);
  auto built = plan::build_devices(detection, catalogue, options);
  if (!built.set) return "no plan: " + built.error;
  // No alternatives (other quantisations, catalogue SKUs): the fleet asks about
  // this request only, and they would multiply the work per host.
  const auto result = plan::make_plan(request, *built.set, catalogue, false);
  if (result.fits()) return "fits: " + result.candidates[*result.chosen].plan.label(*built.set);
  return "does not fit: short by " + shortfall_bucket(result.needs - result.has);
}

}  // namespace hwaccel::sim
