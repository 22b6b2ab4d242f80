#include "src/plan/planner.h"

#include <algorithm>
#include <cstdio>

#include "src/plan/peak_memory.h"
#include "src/plan/runtime.h"

namespace hwaccel::plan {

namespace {

std::string tok_s(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f tok/s", v);
  return buf;
}

// Whether `a` is a better choice than `b` (both fit).
bool better(const Candidate& a, const Candidate& b) {
  if (a.estimate.available && b.estimate.available &&
      a.estimate.decode_tok_s_1 != b.estimate.decode_tok_s_1)
    return a.estimate.decode_tok_s_1 > b.estimate.decode_tok_s_1;
  return a.plan.device_count() < b.plan.device_count();
}

// When no plan fits but one would serve were it not for its engine build
// (TensorRT-LLM), the verdict naming the build, for the best such plan.
std::optional<std::string> build_limit(const PlanResult& r, const DeviceSet& set) {
  const Candidate* best = nullptr;
  for (const auto& c : r.candidates) {
    const auto& sh = c.plan.shards;
    if (sh.empty() || !std::all_of(sh.begin(), sh.end(), [](auto& s) { return s.runtime_fits(); }))
      continue;
    if (!best || better(c, *best)) best = &c;
  }
  if (!best) return std::nullopt;
  const Shard* worst = nullptr;
  for (const auto& s : best->plan.shards)
    if (!s.build_fits() && (!worst || s.build - s.capacity > worst->build - worst->capacity))
      worst = &s;
  if (!worst) return std::nullopt;
  return "does not fit: the engine build is the limit: trtllm-build holds the checkpoint's "
         "weights and the engine it writes, 2 x " +
         gib(worst->weights) + " + " + gib(worst->build - 2 * worst->weights) + " = " +
         gib(worst->build) + " on " + set.devices[worst->device].label + ", which has " +
         gib(worst->capacity) + "; serving alone would fit (" + gib(worst->total()) + ", " +
         best->plan.label(set) + ")";
}

// When no plan fits but one would without llama.cpp's compute buffer, the
// verdict naming the buffer, for the best such plan.
std::optional<std::string> compute_limit(const PlanResult& r, const DeviceSet& set) {
  const Candidate* best = nullptr;
  for (const auto& c : r.candidates) {
    const auto& sh = c.plan.shards;
    bool without = !sh.empty() && std::all_of(sh.begin(), sh.end(), [](const Shard& s) {
      return s.total() - s.compute_buffer <= s.capacity && s.build_fits();
    });
    if (!without) continue;
    if (!best || better(c, *best)) best = &c;
  }
  if (!best) return std::nullopt;
  const Shard* worst = nullptr;
  for (const auto& s : best->plan.shards)
    if (!s.runtime_fits() && (!worst || s.total() - s.capacity > worst->total() - worst->capacity))
      worst = &s;
  if (!worst || worst->compute_buffer <= 0) return std::nullopt;
  const auto& w = r.cost.workload;
  const Stage& st = best->plan.stages.at(worst->stage);
  std::string formula = llama_cpp_compute_buffer_formula(
      r.cost.spec, w.context, w.prefill_chunk, w.flash_attention, st.head,
      gpu_pipeline(best->plan.stages, set) ? kLlamaCppPipelineCopies : 1);
  return "does not fit: the compute buffer is the limit: llama.cpp reserves " +
         gib(worst->compute_buffer) + " for its worst-case graph on " +
         set.devices[worst->device].label + ", set by " + formula + "; with it the device needs " +
         gib(worst->total()) + " and has " + gib(worst->capacity) +
         "; weights, KV cache and runtime alone would fit (" +
         gib(worst->total() - worst->compute_buffer) + ", " + best->plan.label(set) + ")";
}

}  // namespace

std::string PlanResult::runtime_line() const {
  return "runtime: " + runtime + " (" + (runtime_assumed ? "assumed: " : "") + runtime_why + ")";
}

int fits_on_count(const PlanRequest& request, const Sku& sku, const Catalogue& catalogue) {
  for (int n : {1, 2, 4, 8}) {
    // Several devices only where the SKU has a fabric to join them.
    if (n > 1 && (sku.fabric.empty() || sku.fabric == "none")) break;
    DeviceSet set = synthetic_devices(sku, n, 0);
    // Use the default reserve-free capacity of a fresh device minus the same
    // reserve the request's devices carry (none known here: the default).
    for (auto& d : set.devices) {
      d.reserve_bytes = 3584.0 * 1024 * 1024;
      d.capacity = std::max(0.0, d.total_bytes * d.usable_fraction - d.reserve_bytes);
    }
    auto r = make_plan(request, set, catalogue, false);
    if (r.fits()) return n;
  }
  return 0;
}

PlanResult make_plan(const PlanRequest& req, const DeviceSet& given, const Catalogue& cat,
                     bool with_alternatives) {
  PlanResult r;
  // The runtime: named, or assumed from the level and the first accelerator.
  const PlanDevice* first = nullptr;
  for (const auto& d : given.devices)
    if (!first || (first->cpu && !d.cpu)) first = &d;
  if (!req.runtime.empty()) {
    r.runtime = req.runtime, r.runtime_why = "--runtime";
  } else {
    RuntimeInputs in;
    in.quant = &req.quant;
    in.quant_typed = req.quant_typed;
    in.model_file = model_file_kind(req.spec);
    in.sku = first ? first->sku : nullptr;
    in.cpu = !first || first->cpu;
    auto choice = default_runtime(in);
    r.runtime = choice.runtime;
    r.runtime_why = choice.why;
    r.runtime_assumed = true;
  }
  // Devices that cannot run the format hold nothing (same indices as `given`).
  DeviceSet set = given;
  // vLLM budgets its gpu_memory_utilization share of each accelerator.
  if (r.runtime == "vllm") {
    r.budget_rule = "vllm";
    r.budget_share = req.workload.gpu_memory_utilization > 0 ? req.workload.gpu_memory_utilization
                                                             : kVllmGpuMemoryUtilization;
    for (auto& d : set.devices)
      if (!d.cpu) d.capacity = vllm_budget(d, r.budget_share);
  }
  std::vector<std::pair<std::string, std::string>> refused;  // why, labels
  std::vector<std::string> emulations;
  for (auto& d : set.devices) {
    if (d.sku == nullptr && !d.cpu) continue;  // unknown: nothing to say
    // A named runtime decides (refusal or emulation); an assumed one keeps to
    // what the device computes natively.
    std::optional<std::string> why;
    if (!req.runtime.empty()) {
      auto support = runtime_support(req.runtime, req.quant, d.sku, d.cpu);
      why = support.refused;
      if (support.emulation &&
          std::find(emulations.begin(), emulations.end(), *support.emulation) == emulations.end())
        emulations.push_back(*support.emulation);
    } else {
      why = unsupported_on(req.quant, d.sku);
      // Accepted, but the assumed runtime's kernels emulate it: say so too.
      auto e = why ? std::nullopt : emulation(r.runtime, req.quant, d.sku, d.cpu);
      if (e && std::find(emulations.begin(), emulations.end(), e->note) == emulations.end())
        emulations.push_back(e->note);
    }
    if (why) {
      d.capacity = 0;
      auto it =
          std::find_if(refused.begin(), refused.end(), [&](auto& p) { return p.first == *why; });
      if (it == refused.end())
        refused.emplace_back(*why, d.label);
      else
        it->second += ", " + d.label;
    }
  }
  for (const auto& [why, labels] : refused)
    r.notes.push_back(labels + ": " + req.quant.name + " refused: " + why);
  for (const auto& e : emulations) r.notes.push_back("priced as an emulation: " + e);
  {
    const RuntimeProfile* p =
        first && first->sku ? runtime_profile(cat, r.runtime, *first->sku) : nullptr;
    if (p)
      r.notes.push_back("profile " + p->runtime + " on " + p->perf_class + ": " + p->source);
    else if (first && first->sku)
      r.notes.push_back("no " + r.runtime + " profile for " + first->sku->perf_class +
                        " in the catalogue: the perf class's efficiencies");
  }
  if (!r.budget_rule.empty())
    r.notes.push_back(vllm_budget_note(r.budget_share, req.workload.gpu_memory_utilization > 0));
  for (const auto& d : set.devices) {
    const RuntimeProfile* p = d.sku ? runtime_profile(cat, r.runtime, *d.sku) : nullptr;
    r.efficiencies.push_back(p       ? "the " + p->runtime + " profile for " + p->perf_class
                             : d.sku ? "the " + d.sku->perf_class + " perf class"
                                     : "");
  }
  Workload w = req.workload;
  w.runtime = r.runtime;
  r.cost = model_cost(req.spec, req.quant, w);
  r.needs = r.cost.footprint.total();
  bool any_accel = false;
  for (const auto& d : set.devices) any_accel |= !d.cpu;
  bool unified = !set.devices.empty() && set.devices.front().unified;
  for (const auto& d : set.devices) {
    if (d.cpu && any_accel && unified) continue;  // the same memory as the accelerator's
    r.has += d.capacity;
  }
  for (auto& p : candidate_plans(r.cost, set)) {
    Candidate c{p, estimate(p, r.cost, set, cat, req.decode_batch)};
    r.candidates.push_back(std::move(c));
  }
  int fitting = 0;
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    if (!r.candidates[i].plan.fits()) continue;
    ++fitting;
    if (!r.chosen || better(r.candidates[i], r.candidates[*r.chosen])) r.chosen = i;
  }
  if (r.chosen) {
    const auto& c = r.candidates[*r.chosen];
    std::string what = c.plan.label(set);
    if (!c.plan.link.empty()) what += " over " + c.plan.link;
    if (fitting == 1) {
      r.why = what + ": the only plan of " + std::to_string(r.candidates.size()) + " that fits";
    } else if (c.estimate.available) {
      r.why = what + ": the fastest decode (" + tok_s(c.estimate.decode_tok_s_1) +
              " at batch 1) of " + std::to_string(fitting) + " plans that fit";
    } else {
      r.why = what + ": the fewest devices of " + std::to_string(fitting) +
              " plans that fit (no speed estimate: " + c.estimate.missing + ")";
    }
  } else if (auto limit = build_limit(r, set)) {
    r.build_limited = true;
    r.why = *limit;
  } else if (auto compute = compute_limit(r, set)) {
    r.compute_limited = true;
    r.why = *compute;
  } else {
    r.why = "does not fit: needs " + gib(r.needs) + ", has " + gib(r.has);
    if (!refused.empty()) r.why += " (the devices that cannot run " + req.quant.name + " count 0)";
  }
  for (const auto& d : set.devices) r.capacities.push_back(d.capacity);
  if (!with_alternatives) return r;
  // Quantisation levels that fit here, best quality first.
  // Never above the precision the weights were published in (requantising
  // mxfp4 weights to q6_k gains nothing).
  const QuantLevel* published = find_quant(req.spec.dtype);
  for (const auto& q : quant_levels()) {
    if (q.name == "fp32") continue;
    if (published && q.bits > published->bits) continue;
    PlanRequest alt = req;
    alt.quant = q;
    auto a = make_plan(alt, given, cat, false);
    if (!a.fits()) continue;
    const auto& c = a.candidates[*a.chosen];
    r.quant_fits.push_back({q.name, a.needs, c.plan.label(given),
                            c.estimate.available ? c.estimate.decode_tok_s_1 : 0});
  }
  if (!r.fits()) {
    for (const auto& sku : cat.skus) {
      if (sku.type == "cpu") continue;
      int n = fits_on_count(req, sku, cat);
      if (n > 0) r.fits_on.push_back(sku.id + " x" + std::to_string(n));
    }
  }
  return r;
}

}  // namespace hwaccel::plan
