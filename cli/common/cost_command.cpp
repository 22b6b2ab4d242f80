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
#include "src/registry/reserve.h"
#include "src/report/table.h"

namespace hwaccel::cli {

void add_cost_flags(CLI::App& cmd, CostArgs& a) {
  cmd.add_option("--model", a.plan.model, "A built-in model name or path/config.json");
  cmd.add_option("--params", a.plan.params, "A bare parameter count (70B)");
  cmd.add_option("--quant", a.plan.quant, "Weight format (default: as published)");
  cmd.add_option("--kv", a.plan.kv, "KV-cache element type: fp16, fp8 or q8_0");
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
  req.decode_batch = a.plan.decode_batch;
  struct Row {
    const plan::Instance* in;
    std::string plan;
    double tok_s = 0;
  };
  std::vector<Row> rows;
  for (const auto& in : parsed.instances) {
    const plan::Sku* sku = l.catalogue->find(in.accelerator);
    auto set =
        plan::synthetic_devices(*sku, in.count, double(kDefaultReserveBytes), in.host_memory_bytes);
    auto r = plan::make_plan(req, set, *l.catalogue, false);
    if (!r.fits()) continue;
    const auto& c = r.candidates[*r.chosen];
    rows.push_back({&in, c.plan.label(set), c.estimate.available ? c.estimate.decode_tok_s_b : 0});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) {
    return x.in->usd_per_hour < y.in->usd_per_hour;
  });
  if (rows.size() > static_cast<std::size_t>(a.top)) rows.resize(a.top);
  auto per_million = [](const Row& r) {
    return r.tok_s > 0 ? r.in->usd_per_hour / (r.tok_s * 3600) * 1e6 : 0.0;
  };
  if (a.plan.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : rows) {
      list.push_back({{"provider", r.in->provider},
                      {"instance", r.in->instance},
                      {"accelerator", r.in->accelerator},
                      {"count", r.in->count},
                      {"usd_per_hour", r.in->usd_per_hour},
                      {"region", r.in->region},
                      {"date", r.in->date},
                      {"source", r.in->source},
                      {"plan", r.plan},
                      {"decode_tok_s_batch", std::round(r.tok_s * 10) / 10},
                      {"usd_per_million_tokens", std::round(per_million(r) * 1000) / 1000}});
    }
    nlohmann::json j{
        {"schema", "hwaccel-cost/1"},      {"model", req.spec.name},      {"quant", q->name},
        {"context", req.workload.context}, {"instances_catalogue", file}, {"fits", list}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "cost: " << req.spec.name << " at " << q->name << ", context "
              << req.workload.context << ", batch " << req.workload.batch << "; instances from "
              << file << "\n\n";
    std::vector<std::vector<std::string>> t{{"PROVIDER", "INSTANCE", "ACCELERATORS", "$/HOUR",
                                             "PLAN", "DECODE B=" + std::to_string(req.decode_batch),
                                             "$/1M TOKENS", "REGION", "PRICE DATE"}};
    for (const auto& r : rows) {
      char price[32], tok[32], pm[32];
      std::snprintf(price, sizeof price, "%.2f", r.in->usd_per_hour);
      std::snprintf(tok, sizeof tok, "%.0f tok/s", r.tok_s);
      std::snprintf(pm, sizeof pm, "%.2f", per_million(r));
      t.push_back({r.in->provider, r.in->instance,
                   std::to_string(r.in->count) + " x " + r.in->accelerator, price, r.plan, tok, pm,
                   r.in->region, r.in->date});
    }
    std::cout << render_table(t);
    if (rows.empty()) std::cout << "no instance in the catalogue fits\n";
    std::cout
        << "prices: on-demand list prices at the date shown (see each source in the catalogue)\n";
  }
  return rows.empty() ? kExitDoesNotFit : kExitOk;
}

}  // namespace hwaccel::cli
