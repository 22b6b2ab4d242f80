#include "cli/common/cost_command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/common/exit_codes.h"
#include "src/host/live_host.h"
#include "src/host/terminal.h"
#include "src/plan/instances.h"
#include "src/plan/planner.h"
#include "src/plan/runtime.h"
#include "src/registry/reserve.h"
#include "src/report/table.h"

namespace hwaccel::cli {

void add_cost_flags(CLI::App& cmd, CostArgs& a) {
  cmd.add_option("--model", a.plan.model, "A built-in model name or path/config.json");
  cmd.add_option("--params", a.plan.params, "A bare parameter count (70B)");
  cmd.add_option("--quant", a.plan.quant, "Weight format (default: as published)");
  cmd.add_option("--runtime", a.plan.runtime,
                 "The runtime the tokens are priced for: llama.cpp, vllm, sglang, trt-llm or mlx "
                 "(default: assumed per instance as plan does; said per row)")
      ->check(CLI::IsMember(plan::runtime_names()));
  cmd.add_option("--prompt", a.plan.prompt, "Prompt tokens the prefill price is at (default 4096)")
      ->check(CLI::Range(1, 10000000));
  cmd.add_option("--kv", a.plan.kv, "KV-cache element type: fp16, fp8 or q8_0");
  cmd.add_option("--flash-attn", a.plan.flash_attn,
                 "llama.cpp's flash attention: on, off or auto (default auto: on)")
      ->check(CLI::IsMember({"on", "off", "auto"}));
  cmd.add_option("--gpu-memory-utilization", a.plan.gpu_memory_utilization,
                 "vLLM's share of each GPU's total memory (default 0.92, vLLM's)")
      ->check(CLI::Range(0.01, 1.0));
  cmd.add_option("--context", a.plan.context, "Tokens per sequence (default 4096)")
      ->check(CLI::Range(1, 10000000));
  cmd.add_option("--batch", a.plan.batch, "Sequences held at once (default 1)")
      ->check(CLI::Range(1, 100000));
  cmd.add_option("--decode-batch", a.plan.decode_batch,
                 "Batch of the throughput estimate (default 32)")
      ->check(CLI::Range(1, 100000));
  cmd.add_option("--devices", a.plan.devices_file, "A DEVICES.toml SKU catalogue");
  cmd.add_option("--instances", a.instances_file,
                 "An instances.toml catalogue instead of the built-in one");
  cmd.add_option("--top", a.top, "How many instances to list (default 10)")
      ->check(CLI::Range(1, 1000));
  cmd.add_flag("--json", a.plan.json, "Print JSON");
}

int run_cost(const CostArgs& a) {
  Loaded l = load_catalogue(a.plan.devices_file);
  if (l.exit != kExitOk) return l.exit;
  if (int rc = load_model(a.plan.model, a.plan.params, l); rc != kExitOk) return rc;
  const plan::QuantLevel* q = plan::find_quant(a.plan.quant.empty() ? l.spec->dtype : a.plan.quant);
  if (!q || !plan::kv_bytes_per_element(a.plan.kv)) {
    std::cerr << "error: --quant or --kv: unknown; quant: " << plan::quant_names()
              << "; kv: fp16, fp8, q8_0\n";
    return kExitUsage;
  }
  std::string text(plan::builtin_instances_toml());
  std::string file = "data/instances.toml (built-in)";
  if (!a.instances_file.empty()) {
    LiveHost host;
    auto read = host.read(absolute_path(a.instances_file));  // relative to the working folder
    if (!read) {
      std::cerr << "error: --instances " << a.instances_file << ": " << read.error().message
                << "\n";
      return kExitBadInput;
    }
    text = *read;
    file = a.instances_file;
  }
  auto parsed = plan::parse_instances(text, file, *l.catalogue);
  if (!parsed.ok()) {
    std::cerr << "error: " << parsed.error << "\n";
    return kExitBadInput;
  }
  plan::PlanRequest req;
  req.spec = *l.spec;
  req.quant = *q;
  req.workload.context = a.plan.context;
  req.workload.batch = a.plan.batch;
  req.workload.kv = a.plan.kv;
  req.workload.flash_attention = a.plan.flash_attn != "off";
  req.workload.gpu_memory_utilization = a.plan.gpu_memory_utilization;
  req.decode_batch = a.plan.decode_batch;
  req.runtime = a.plan.runtime;
  req.quant_typed = a.plan.quant;
  if (a.plan.prompt > 0) req.workload.prompt = a.plan.prompt;
  struct Row {
    const plan::Instance* in;
    std::string plan;
    double tok_s = 0;
    double prefill_tok_s = 0;
    std::string runtime;
    std::string profile;  // the profile that priced it, with its source
  };
  struct Refused {
    const plan::Instance* in;
    std::string reason;
  };
  std::vector<Row> rows;
  std::vector<Refused> refused;
  std::vector<std::string> emulations;  // "vllm runs fp8 on ... weight-only (Marlin) ..."
  for (const auto& in : parsed.instances) {
    const plan::Sku* sku = l.catalogue->find(in.accelerator);
    auto set =
        plan::synthetic_devices(*sku, in.count, double(kDefaultReserveBytes), in.host_memory_bytes);
    auto r = plan::make_plan(req, set, *l.catalogue, false);
    if (!r.fits()) {
      for (const auto& n : r.notes)
        if (n.find(" refused: ") != std::string::npos) {
          refused.push_back({&in, n.substr(n.find(" refused: ") + 10)});
          break;
        }
      continue;
    }
    const std::string emulated = "priced as an emulation: ";
    for (const auto& n : r.notes)
      if (n.rfind(emulated, 0) == 0 && std::find(emulations.begin(), emulations.end(),
                                                 n.substr(emulated.size())) == emulations.end())
        emulations.push_back(n.substr(emulated.size()));
    const auto& c = r.candidates[*r.chosen];
    const auto& e = c.estimate;
    const plan::RuntimeProfile* p = plan::runtime_profile(*l.catalogue, r.runtime, *sku);
    std::string profile = p ? r.runtime + " on " + p->perf_class + ": " + p->source
                            : "no " + r.runtime + " profile for " + sku->perf_class +
                                  ": the perf class's efficiencies";
    double prefill = !e.available ? 0 : e.prompt > 0 ? e.prefill_tok_s_prompt : e.prefill_tok_s_4k;
    rows.push_back(
        {&in, c.plan.label(set), e.available ? e.decode_tok_s_b : 0, prefill, r.runtime, profile});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) {
    return x.in->usd_per_hour < y.in->usd_per_hour;
  });
  if (rows.size() > static_cast<std::size_t>(a.top)) rows.resize(a.top);
  auto per_million_at = [](const Row& r, double tok_s) {
    return tok_s > 0 ? r.in->usd_per_hour / (tok_s * 3600) * 1e6 : 0.0;
  };
  auto per_million = [&](const Row& r) { return per_million_at(r, r.tok_s); };
  auto per_million_prompt = [&](const Row& r) { return per_million_at(r, r.prefill_tok_s); };
  const int prompt = req.workload.prompt > 0 ? req.workload.prompt : 4096;
  if (a.plan.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : rows) {
      list.push_back(
          {{"provider", r.in->provider},
           {"instance", r.in->instance},
           {"accelerator", r.in->accelerator},
           {"count", r.in->count},
           {"usd_per_hour", r.in->usd_per_hour},
           {"region", r.in->region},
           {"date", r.in->date},
           {"source", r.in->source},
           {"plan", r.plan},
           {"decode_tok_s_batch", std::round(r.tok_s * 10) / 10},
           {"usd_per_million_tokens", std::round(per_million(r) * 1000) / 1000},
           {"runtime", r.runtime},
           {"runtime_profile", r.profile},
           {"prefill_tok_s", std::round(r.prefill_tok_s * 10) / 10},
           {"usd_per_million_prompt_tokens", std::round(per_million_prompt(r) * 1000) / 1000}});
    }
    nlohmann::json no = nlohmann::json::array();
    for (const auto& x : refused)
      no.push_back(
          {{"provider", x.in->provider}, {"instance", x.in->instance}, {"reason", x.reason}});
    nlohmann::json j{
        {"schema", "hwaccel-cost/1"},      {"model", req.spec.name}, {"quant", q->name},
        {"context", req.workload.context}, {"runtime", req.runtime}, {"prompt", prompt},
        {"instances_catalogue", file},     {"fits", list},           {"refused", no},
        {"emulations", emulations}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "cost: " << req.spec.name << " at " << q->name << ", context "
              << req.workload.context << ", batch " << req.workload.batch << "; instances from "
              << file << "\n";
    std::cout << "runtime: "
              << (req.runtime.empty() ? "assumed per instance as plan does (--runtime to choose)"
                                      : req.runtime + " (--runtime)")
              << "; prompt tokens priced at a prefill of " << prompt << "\n\n";
    std::vector<std::vector<std::string>> t{
        {"PROVIDER", "INSTANCE", "ACCELERATORS", "$/HOUR", "PLAN", "RUNTIME",
         "DECODE B=" + std::to_string(req.decode_batch), "$/1M TOKENS", "PREFILL", "$/1M PROMPT",
         "REGION", "PRICE DATE"}};
    std::vector<std::string> profiles;  // each once, in row order
    for (const auto& r : rows) {
      char price[32], tok[32], pm[32], pre[32], pmp[32];
      std::snprintf(price, sizeof price, "%.2f", r.in->usd_per_hour);
      std::snprintf(tok, sizeof tok, "%.0f tok/s", r.tok_s);
      std::snprintf(pm, sizeof pm, "%.2f", per_million(r));
      std::snprintf(pre, sizeof pre, "%.0f tok/s", r.prefill_tok_s);
      std::snprintf(pmp, sizeof pmp, "%.3f", per_million_prompt(r));
      t.push_back({r.in->provider, r.in->instance,
                   std::to_string(r.in->count) + " x " + r.in->accelerator, price, r.plan,
                   r.runtime, tok, pm, pre, pmp, r.in->region, r.in->date});
      if (std::find(profiles.begin(), profiles.end(), r.profile) == profiles.end())
        profiles.push_back(r.profile);
    }
    std::cout << render_table(t);
    if (rows.empty()) std::cout << "no instance in the catalogue fits\n";
    for (const auto& p : profiles) std::cout << "priced by: " << p << "\n";
    for (const auto& e : emulations) std::cout << "priced as an emulation: " << e << "\n";
    for (const auto& x : refused)
      std::cout << "refused: " << x.in->provider << " " << x.in->instance << ": " << x.reason
                << "\n";
    std::cout
        << "prices: on-demand list prices at the date shown (see each source in the catalogue)\n";
  }
  return rows.empty() ? kExitDoesNotFit : kExitOk;
}

}  // namespace hwaccel::cli
