#include "src/report/plan_roofline.h"

#include "src/plan/quant.h"

namespace hwaccel {

namespace {

std::string tokens_text(int n) {
  return n % 1024 == 0 ? std::to_string(n / 1024) + "k" : std::to_string(n);
}

}  // namespace

PlanRoofline plan_roofline(const plan::PlanResult& result, const plan::PlanRequest& request,
                           const plan::DeviceSet& set, const plan::Catalogue& catalogue) {
  PlanRoofline out;
  // The chosen plan, else the first candidate (the chart then shows why it is slow
  // or where it would sit; it still has a device).
  const plan::Candidate* cand = nullptr;
  if (result.chosen)
    cand = &result.candidates[*result.chosen];
  else if (!result.candidates.empty())
    cand = &result.candidates.front();
  if (!cand || cand->plan.stages.empty() || cand->plan.stages[0].devices.empty()) {
    out.error = "no plan to draw";
    return out;
  }
  const plan::Plan& p = cand->plan;
  const plan::PlanDevice& d = set.devices[std::size_t(p.stages[0].devices[0])];
  if (!d.known()) {
    out.error = d.label + " " + d.name + " is not in the device catalogue: no roofs to draw";
    return out;
  }

  RooflineChart& c = out.chart;
  c.title = d.label + " " + d.name + (d.sku ? " (" + d.sku->id + ")" : "");
  c.subtitle = request.spec.name + ", " + request.quant.name + ", " + p.label(set) + ", context " +
               tokens_text(request.workload.context);
  c.memory = d.sku && !d.sku->memory_type.empty() ? d.sku->memory_type : "memory";
  c.bandwidth_bytes_s = d.bandwidth();
  for (const auto& f : plan::known_formats())
    if (double peak = d.peak(f); peak > 0) c.roofs.push_back({f, peak});

  const plan::ModelCost& cost = result.cost;
  const double devices = double(p.device_count());
  auto add = [&](const std::string& label, std::optional<double> seconds, const plan::StepWork& w) {
    if (!seconds || *seconds <= 0 || w.bytes <= 0) return;
    c.points.push_back({label, w.flops / w.bytes, w.flops / *seconds / devices});
  };
  const int context = request.workload.context;
  plan::StepWork d1, db, pf;
  add("decode, batch 1",
      plan::decode_step_seconds(p, cost, set, catalogue, 1, context, nullptr, &d1), d1);
  if (request.decode_batch > 1)
    add("decode, batch " + std::to_string(request.decode_batch),
        plan::decode_step_seconds(p, cost, set, catalogue, request.decode_batch, context, nullptr,
                                  &db),
        db);
  add("prefill, 4k tokens", plan::prefill_seconds(p, cost, set, catalogue, 4096, &pf), pf);
  if (c.points.empty()) {
    out.error = cand->estimate.missing.empty() ? "no estimate for this plan"
                                               : "no estimate: " + cand->estimate.missing;
    return out;
  }

  std::string source = d.sku ? "SKU " + d.sku->id + " of the " + catalogue.origin + " catalogue"
                             : "an unknown CPU's assumed figures";
  c.notes.push_back("Roofs: " + source + " (dense peaks; compute format of " + request.quant.name +
                    ": " + (d.sku ? plan::compute_format(request.quant, *d.sku) : "fp32") + ").");
  c.notes.push_back("Points: hwaccel's estimate for " + p.label(set) +
                    ": the plan's FLOPs over its bytes, FLOP/s per device" +
                    (result.chosen ? "" : " (does not fit: the first candidate)") + ".");
  return out;
}

}  // namespace hwaccel
