// Calibration of the planning estimates: for each measured result (the table
// in docs/performance.md, "Planning estimates"), the estimate, the measurement
// and the error; then the median absolute errors and, per perf class, the
// efficiency that would have made the estimates exact (median over its rows),
// which is what data/devices.toml's [perf_class.*] should hold.
//
//   build/tests/bench_estimates            (not a timed test; prints a table)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "src/plan/planner.h"

using namespace hwaccel::plan;

namespace {

struct Row {
  const char* sku;
  const char* model;
  const char* quant;
  double decode;   // tok/s, batch 1 (llama-bench tg)
  int tg;          // tokens generated (the context decode runs at is about tg/2)
  double prefill;  // tok/s; 0: not measured
  int pp;          // prompt tokens
  const char* source;
};

const Row kRows[] = {
    {"apple-m2-ultra", "Llama-2-7B", "q4_0", 94.27, 128, 1238.48, 512, "llama.cpp discussion 4167"},
    {"rtx-4090", "Llama-2-7B", "q4_0", 186.21, 128, 11992.7, 512, "llama.cpp discussion 15013"},
    {"gb10", "Llama-2-7B", "q4_0", 57.21, 128, 3062, 512, "llama.cpp discussion 15013"},
    {"a100-80gb-pcie", "Llama-2-70B", "q4_0", 25.68, 128, 0, 0,
     "XiongjieDai/GPU-Benchmarks-on-LLM-Inference"},
    {"rtx-4090", "Llama-3-8B", "q4_k_m", 130.58, 1024, 7139, 512,
     "XiongjieDai/GPU-Benchmarks-on-LLM-Inference"},
    {"apple-m2-ultra", "Llama-3-70B", "q4_k_m", 12.48, 1024, 118.8, 512,
     "XiongjieDai/GPU-Benchmarks-on-LLM-Inference"},
    {"gb10", "gpt-oss-120B", "mxfp4", 59.02, 32, 1937.5, 2048, "llama.cpp benches/dgx-spark.md"},
};

// Measured results NOT used to fit the efficiencies (held out).
const Row kHeldOut[] = {
    {"rtx-4090", "Llama-3-8B", "q6_k", 93, 128, 4668, 512,
     "dmatora/LLM-inference-speed-benchmarks issue 10 (llama.cpp server; prompt length not "
     "stated)"},
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main() {
  const Catalogue& cat = builtin_catalogue();
  std::vector<double> decode_err, prefill_err;
  struct Seen {
    std::string cls;
    double d_est, d_meas, d_fit, overhead_s, p_est, p_meas, p_fit;
  };
  std::vector<Seen> seen;
  std::map<std::string, std::vector<double>> decode_fit, prefill_fit;
  std::printf("%-15s %-13s %-7s %10s %10s %7s %11s %11s %7s\n", "device", "model", "quant",
              "decode est", "measured", "error", "prefill est", "measured", "error");
  std::vector<std::pair<Row, bool>> all;
  for (const Row& r : kRows) all.push_back({r, false});
  for (const Row& r : kHeldOut) all.push_back({r, true});
  std::vector<double> held_d, held_p;
  for (const auto& [row, held] : all) {
    const Sku* sku = cat.find(row.sku);
    const PerfClass* perf = sku ? cat.perf(*sku) : nullptr;
    auto model = builtin_model(row.model);
    const QuantLevel* q = find_quant(row.quant);
    if (!sku || !perf || !model.spec || !q) {
      std::printf("bad row %s %s %s\n", row.sku, row.model, row.quant);
      return 1;
    }
    Workload w;
    w.context = std::max(1, row.tg / 2);
    DeviceSet set = synthetic_devices(*sku, 1, 0);
    set.devices[0].capacity = 1e15;  // calibration measures speed, not fit
    auto cost = model_cost(*model.spec, *q, w);
    auto plans = candidate_plans(cost, set);
    auto t = decode_step_seconds(plans.at(0), cost, set, cat, 1, w.context);
    double est = t ? 1 / *t : 0;
    double err = (est - row.decode) / row.decode;
    (held ? held_d : decode_err).push_back(std::fabs(err));
    // Efficiency that would make this row exact (memory-bound share only).
    double overhead = perf->decode_overhead_us_per_layer * 1e-6 * model.spec->layers;
    double mem_time = 1 / row.decode - overhead;
    double bytes_time_at_1 = (*t - overhead) * perf->decode_efficiency;
    double d_fit = mem_time > 0 ? bytes_time_at_1 / mem_time : 0;
    if (mem_time > 0 && !held) decode_fit[sku->perf_class].push_back(d_fit);
    Seen sn{sku->perf_class, est, row.decode, d_fit, overhead, 0, 0, 0};
    std::printf("%-15s %-13s %-7s %10.1f %10.2f %+6.1f%%", row.sku, row.model, row.quant, est,
                row.decode, err * 100);
    if (row.prefill > 0) {
      auto p = prefill_seconds(plans.at(0), cost, set, cat, row.pp);
      double pest = p ? row.pp / *p : 0;
      double perr = (pest - row.prefill) / row.prefill;
      (held ? held_p : prefill_err).push_back(std::fabs(perr));
      if (!held)
        prefill_fit[sku->perf_class].push_back(perf->prefill_efficiency * row.prefill / pest);
      sn.p_est = pest, sn.p_meas = row.prefill,
      sn.p_fit = perf->prefill_efficiency * row.prefill / pest;
      std::printf(" %11.1f %11.1f %+6.1f%%  pp%d", pest, row.prefill, perr * 100, row.pp);
    } else {
      std::printf(" %11s %11s %7s", "-", "-", "-");
    }
    std::printf("  [%s]%s\n", row.source, held ? " HELD OUT" : "");
    if (!held) seen.push_back(sn);
  }
  // Leave-one-out: each row estimated with its class's efficiency fitted on the
  // class's other rows only (rows alone in their class have none). Approximate:
  // scales the bandwidth (decode) or compute (prefill) term by the refit.
  std::vector<double> loo_d, loo_p;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    std::vector<double> fd, fp;
    for (std::size_t j = 0; j < seen.size(); ++j) {
      if (j == i || seen[j].cls != seen[i].cls) continue;
      if (seen[j].d_fit > 0) fd.push_back(seen[j].d_fit);
      if (seen[j].p_fit > 0) fp.push_back(seen[j].p_fit);
    }
    const PerfClass& pc = cat.perf_classes.at(seen[i].cls);
    if (!fd.empty()) {
      double t = 1 / seen[i].d_est - seen[i].overhead_s;
      double t_loo = t * pc.decode_efficiency / median(fd) + seen[i].overhead_s;
      loo_d.push_back(std::fabs((1 / t_loo - seen[i].d_meas) / seen[i].d_meas));
    }
    if (!fp.empty() && seen[i].p_meas > 0) {
      double p_loo = seen[i].p_est * median(fp) / pc.prefill_efficiency;
      loo_p.push_back(std::fabs((p_loo - seen[i].p_meas) / seen[i].p_meas));
    }
  }
  std::printf(
      "\nmedian |error|: decode %.1f%% over %zu rows (target <= 20%%), prefill %.1f%% over %zu "
      "rows (target <= 30%%)\n",
      median(decode_err) * 100, decode_err.size(), median(prefill_err) * 100, prefill_err.size());
  std::printf(
      "leave-one-out median |error| (rows whose class has another row): decode %.1f%% over %zu "
      "rows, prefill %.1f%% over %zu rows\n",
      median(loo_d) * 100, loo_d.size(), median(loo_p) * 100, loo_p.size());
  std::printf(
      "held-out rows (not used to fit): decode %.1f%% over %zu rows, prefill %.1f%% over %zu "
      "rows\n",
      median(held_d) * 100, held_d.size(), median(held_p) * 100, held_p.size());
  std::printf("\nefficiency per perf class: in the catalogue -> fitted (median over its rows)\n");
  for (const auto& [name, pc] : cat.perf_classes) {
    if (!decode_fit.count(name) && !prefill_fit.count(name)) continue;
    std::printf("  %-18s decode %.2f -> %.2f   prefill %.2f -> %s\n", name.c_str(),
                pc.decode_efficiency, median(decode_fit[name]), pc.prefill_efficiency,
                prefill_fit.count(name)
                    ? std::to_string(median(prefill_fit[name])).substr(0, 4).c_str()
                    : "(no row)");
  }
  bool ok = median(decode_err) <= 0.20 && median(prefill_err) <= 0.30;
  std::printf("\n%s\n", ok ? "within target" : "OUTSIDE TARGET");
  return ok ? 0 : 3;
}
