#include "src/report/plan_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "src/plan/peak_memory.h"
#include "src/report/table.h"

namespace hwaccel {

using namespace plan;

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string layers_text(const Shard& s) {
  if (s.layer_count == 0) return "-";
  return std::to_string(s.first_layer) + "-" + std::to_string(s.first_layer + s.layer_count - 1);
}

std::string rate(double v) {
  return fixed(v, 1) + " tok/s";
}

std::string sku_text(const PlanDevice& d) {
  if (d.sku) return d.sku->id;
  return d.cpu ? "(cpu, not in catalogue)" : "(unknown)";
}

double round1(double v) {
  return std::round(v * 10) / 10;
}

struct Table {
  std::vector<std::vector<std::string>> rows;
  explicit Table(std::vector<std::string> header) { rows.push_back(std::move(header)); }
  void add(std::vector<std::string> row) { rows.push_back(std::move(row)); }
  std::string render() const { return render_table(rows); }
};

// What the plan budgeted on device `i`: "68.2 GiB (x0.90 - reserve)", or
// vLLM's share "71.6 GiB (vLLM x0.90)" ("vLLM x0.90, less the reserve" where
// the reserve must stay free of it).
std::string usable_text(const PlanResult& r, const PlanDevice& d, std::size_t i) {
  double cap = i < r.capacities.size() ? r.capacities[i] : d.capacity;
  if (r.budget_rule != "vllm" || d.cpu)
    return gib(cap) + " (x" + fixed(d.usable_fraction, 2) + " - reserve)";
  bool reserve_binds = cap < d.total_bytes * r.budget_share - 1;
  return gib(cap) + " (vLLM x" + fixed(r.budget_share, 2) +
         (reserve_binds ? ", less the reserve)" : ")");
}

// "yes", "no", or "no (build)" where only the engine build does not fit.
std::string fits_text(const Plan& p) {
  if (p.fits()) return "yes";
  bool serves = !p.shards.empty() && std::all_of(p.shards.begin(), p.shards.end(),
                                                 [](const Shard& s) { return s.runtime_fits(); });
  return serves ? "no (build)" : "no";
}

}  // namespace

// "the vllm profile for nvidia-datacenter and the cpu perf class": each source
// once, in the order of the plan's shards.
static std::string efficiency_sources(const PlanResult& r, const Plan& plan) {
  std::vector<std::string> seen;
  for (const auto& s : plan.shards) {
    const auto at = static_cast<std::size_t>(s.device);
    if (s.device < 0 || at >= r.efficiencies.size() || r.efficiencies[at].empty()) continue;
    const auto& e = r.efficiencies[at];
    if (std::find(seen.begin(), seen.end(), e) == seen.end()) seen.push_back(e);
  }
  if (seen.empty()) return "the catalogue's perf classes";
  std::string out;
  for (std::size_t i = 0; i < seen.size(); ++i)
    out += (i == 0 ? "" : i + 1 == seen.size() ? " and " : ", ") + seen[i];
  return out;
}

std::string render_plan_text(const PlanResult& r, const DeviceSet& set, const PlanContext& ctx) {
  const auto& c = r.cost;
  const auto& m = c.spec;
  std::ostringstream o;
  o << "model: " << m.name << " (" << m.origin << "), " << fixed(c.params.total() / 1e9, 2)
    << " B parameters";
  if (m.moe()) o << ", " << fixed(c.params.active() / 1e9, 2) << " B active per token";
  o << "\n  " << describe_shape(m) << "\n";
  for (const auto& a : m.assumptions) o << "  assumption: " << a << "\n";
  o << "request: weights " << c.quant.name << " (" << fixed(c.quant.bits, 2) << " bpw; "
    << c.quant.note << "), KV " << c.workload.kv << ", context " << c.workload.context << ", batch "
    << c.workload.batch;
  if (c.workload.prompt > 0 || c.workload.gen > 0)
    o << ", prompt " << c.workload.prompt << ", gen " << c.workload.gen;
  o << "\n" << r.runtime_line() << "\n";
  o << "devices: " << ctx.source << ", catalogue " << ctx.catalogue << ", reserve " << ctx.reserve
    << "\n\n";

  Table devices({"DEVICE", "NAME", "SKU", "MEMORY", "USABLE", "BANDWIDTH"});
  for (std::size_t i = 0; i < set.devices.size(); ++i) {
    const auto& d = set.devices[i];
    std::string mem = gib(d.total_bytes) + (d.unified ? " unified" : d.cpu ? " host" : "");
    if (d.free_bytes) mem += ", " + gib(*d.free_bytes) + " free";
    std::string usable = usable_text(r, d, i);
    std::string bw = d.bandwidth() > 0 ? fixed(d.bandwidth() / 1e9, 0) + " GB/s" : "unknown";
    devices.add({d.label, d.name, sku_text(d), mem, usable, bw});
  }
  o << devices.render();
  for (const auto& n : set.notes) o << "  note: " << n << "\n";
  for (const auto& n : r.notes) o << "  note: " << n << "\n";
  o << "\n";

  const auto& f = c.footprint;
  Table fp({"FOOTPRINT", "BYTES", "HOW"});
  fp.add({"weights", gib(f.weights),
          fixed(c.params.total() / 1e9, 2) + " B params at " + c.quant.name});
  fp.add({"kv cache", gib(f.kv_cache), kv_formula(m, c.workload, c.kv_element)});
  if (uses_compute_buffer(c.workload.runtime))
    fp.add({"activations", gib(f.activations),
            "llama.cpp compute buffer, per device: " +
                llama_cpp_compute_buffer_formula(m, c.workload.context, c.workload.prefill_chunk,
                                                 c.workload.flash_attention, true)});
  else
    fp.add({"activations", gib(f.activations),
            "one " + std::to_string(std::min(c.workload.context, c.workload.prefill_chunk)) +
                "-token prefill chunk + logits, per device"});
  fp.add({"runtime", gib(f.overhead), "context and library workspace, per accelerator"});
  fp.add({"total", gib(f.total()), "one copy of everything"});
  o << fp.render() << "\n";

  if (r.fits()) {
    const auto& ch = r.candidates[*r.chosen];
    o << "plan: " << r.why << "\n";
    Table shards(
        {"SHARD", "DEVICE", "LAYERS", "WEIGHTS", "KV", "OTHER", "TOTAL", "USABLE", "FITS"});
    int i = 0;
    for (const auto& s : ch.plan.shards) {
      const auto& d = set.devices[s.device];
      shards.add({std::to_string(i++), d.label, layers_text(s), gib(s.weights), gib(s.kv),
                  gib(s.other), gib(s.total()), gib(s.capacity), s.fits() ? "yes" : "no"});
    }
    o << shards.render();
    const auto& e = ch.estimate;
    if (e.available) {
      o << "estimate: decode " << rate(e.decode_tok_s_1) << " at batch 1, "
        << rate(e.decode_tok_s_b) << " at batch " << e.batch << " (context " << e.decode_context
        << (c.workload.prompt > 0 || c.workload.gen > 0 ? ", the middle of the generation" : "")
        << "); prefill ";
      if (e.prompt > 0)
        o << rate(e.prefill_tok_s_prompt) << " at the prompt's " << e.prompt << ", ";
      o << rate(e.prefill_tok_s_4k) << " at 4096, " << rate(e.prefill_tok_s_32k) << " at 32768\n";
      o << "  decode reads " << gib(e.bytes_per_token)
        << " per token over all devices (weights + KV); efficiencies from "
        << efficiency_sources(r, ch.plan) << "\n";
    } else {
      o << "estimate: none (" << e.missing << ")\n";
    }
  } else {
    o << r.why << "\n";
    if (!r.fits_on.empty()) {
      o << "fits on:";
      for (const auto& s : r.fits_on) o << " " << s;
      o << "\n";
    }
  }
  if (!r.quant_fits.empty()) {
    o << "quantisation that fits here: " << r.quant_fits.front().quant << " ("
      << gib(r.quant_fits.front().needs) << ", " << r.quant_fits.front().plan << ")";
    if (r.quant_fits.size() > 1) {
      o << "; runner-ups:";
      for (std::size_t i = 1; i < r.quant_fits.size() && i < 3; ++i)
        o << " " << r.quant_fits[i].quant << " (" << gib(r.quant_fits[i].needs) << ")";
    }
    o << "\n";
  } else {
    o << "quantisation that fits here: none\n";
  }
  o << "\n";
  Table plans(
      {"PLAN", "FITS", "NEEDS/DEVICE", "DECODE B=1",
       "DECODE B=" + std::to_string(r.candidates.empty() ? 0 : r.candidates.front().estimate.batch),
       "PREFILL 4K", "PREFILL 32K"});
  for (const auto& cand : r.candidates) {
    double worst = 0;
    for (const auto& s : cand.plan.shards) worst = std::max(worst, s.total());
    const auto& e = cand.estimate;
    plans.add({cand.plan.label(set), fits_text(cand.plan), gib(worst),
               e.available ? rate(e.decode_tok_s_1) : "-",
               e.available ? rate(e.decode_tok_s_b) : "-",
               e.available ? rate(e.prefill_tok_s_4k) : "-",
               e.available ? rate(e.prefill_tok_s_32k) : "-"});
  }
  o << plans.render();
  return o.str();
}

std::string render_plan_json(const PlanResult& r, const DeviceSet& set, const PlanContext& ctx) {
  using nlohmann::json;
  const auto& c = r.cost;
  const auto& m = c.spec;
  json doc;
  doc["schema"] = "hwaccel-plan/1";
  doc["source"] = ctx.source;
  doc["catalogue"] = ctx.catalogue;
  doc["reserve"] = ctx.reserve;
  json model;
  model["name"] = m.name;
  model["origin"] = m.origin;
  model["layers"] = m.layers;
  model["hidden"] = m.hidden;
  model["heads"] = m.heads;
  model["kv_heads"] = m.kv_heads;
  model["head_dim"] = m.head_dim;
  model["intermediate"] = m.intermediate;
  model["vocab"] = m.vocab;
  model["tied_embeddings"] = m.tied_embeddings;
  model["experts"] = m.experts;
  model["experts_per_token"] = m.experts_per_token;
  model["sliding_window"] = m.sliding_window;
  model["sliding_layers"] = m.sliding_layers;
  model["kv_lora_rank"] = m.kv_lora_rank;
  model["parameters"] = std::llround(c.params.total());
  model["active_parameters"] = std::llround(c.params.active());
  model["assumptions"] = m.assumptions;
  doc["model"] = model;
  doc["request"] = {{"quant", c.quant.name},
                    {"bits_per_weight", c.quant.bits},
                    {"kv", c.workload.kv},
                    {"context", c.workload.context},
                    {"batch", c.workload.batch}};
  if (c.workload.prompt > 0 || c.workload.gen > 0) {
    doc["request"]["prompt"] = c.workload.prompt;
    doc["request"]["gen"] = c.workload.gen;
  }
  doc["runtime"] = {{"name", r.runtime}, {"assumed", r.runtime_assumed}, {"why", r.runtime_why}};
  if (r.budget_rule == "vllm") doc["runtime"]["gpu_memory_utilization"] = r.budget_share;
  json devices = json::array();
  for (std::size_t i = 0; i < set.devices.size(); ++i) {
    const auto& d = set.devices[i];
    double usable = i < r.capacities.size() ? r.capacities[i] : d.capacity;
    devices.push_back({{"label", d.label},
                       {"name", d.name},
                       {"sku", d.sku ? json(d.sku->id) : json(nullptr)},
                       {"cpu", d.cpu},
                       {"unified", d.unified},
                       {"total_bytes", std::llround(d.total_bytes)},
                       {"usable_bytes", std::llround(usable)},
                       {"bandwidth_bytes_s", std::llround(d.bandwidth())}});
  }
  doc["devices"] = devices;
  std::vector<std::string> notes = set.notes;
  notes.insert(notes.end(), r.notes.begin(), r.notes.end());
  doc["notes"] = notes;
  const auto& f = c.footprint;
  doc["footprint"] = {{"weights_bytes", std::llround(f.weights)},
                      {"kv_cache_bytes", std::llround(f.kv_cache)},
                      {"activations_bytes", std::llround(f.activations)},
                      {"runtime_bytes", std::llround(f.overhead)},
                      {"total_bytes", std::llround(f.total())}};
  doc["fits"] = r.fits();
  if (r.build_limited) doc["limit"] = "engine build";
  if (r.compute_limited) doc["limit"] = "compute buffer";
  doc["explanation"] = r.why;
  doc["needs_bytes"] = std::llround(r.needs);
  doc["has_bytes"] = std::llround(r.has);
  json plans = json::array();
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    const auto& cand = r.candidates[i];
    json p;
    p["label"] = cand.plan.label(set);
    p["kind"] = to_string(cand.plan.kind);
    p["tensor_parallel"] = cand.plan.tp;
    p["pipeline_stages"] = cand.plan.stages.size();
    p["link"] = cand.plan.link;
    p["fits"] = cand.plan.fits();
    p["chosen"] = r.chosen && *r.chosen == i;
    json shards = json::array();
    for (const auto& s : cand.plan.shards) {
      json sh = {{"device", set.devices[s.device].label},
                 {"first_layer", s.first_layer},
                 {"layer_count", s.layer_count},
                 {"weights_bytes", std::llround(s.weights)},
                 {"kv_bytes", std::llround(s.kv)},
                 {"other_bytes", std::llround(s.other)},
                 {"usable_bytes", std::llround(s.capacity)},
                 {"fits", s.fits()}};
      if (builds_engine(r.runtime)) sh["build_bytes"] = std::llround(s.build);
      shards.push_back(sh);
    }
    p["shards"] = shards;
    const auto& e = cand.estimate;
    if (e.available) {
      p["estimate"] = {{"decode_tok_s_batch1", round1(e.decode_tok_s_1)},
                       {"decode_tok_s_batch", round1(e.decode_tok_s_b)},
                       {"batch", e.batch},
                       {"prefill_tok_s_4096", round1(e.prefill_tok_s_4k)},
                       {"prefill_tok_s_32768", round1(e.prefill_tok_s_32k)}};
      if (e.prompt > 0) {
        p["estimate"]["prompt"] = e.prompt;
        p["estimate"]["prefill_tok_s_prompt"] = round1(e.prefill_tok_s_prompt);
      }
      if (c.workload.prompt > 0 || c.workload.gen > 0)
        p["estimate"]["decode_context"] = e.decode_context;
    } else {
      p["estimate"] = nullptr;
      p["no_estimate"] = e.missing;
    }
    plans.push_back(p);
  }
  doc["plans"] = plans;
  json q = json::array();
  for (const auto& qf : r.quant_fits)
    q.push_back({{"quant", qf.quant}, {"needs_bytes", std::llround(qf.needs)}, {"plan", qf.plan}});
  doc["quant_fits"] = q;
  doc["fits_on"] = r.fits_on;
  return doc.dump(2) + "\n";
}

}  // namespace hwaccel
