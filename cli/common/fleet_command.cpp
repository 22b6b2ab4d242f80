#include "cli/common/fleet_command.h"

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

#include "cli/common/exit_codes.h"
#include "cli/common/number_options.h"
#include "cli/common/plan_command.h"
#include "cli/common/synth_command.h"
#include "sim/fleet.h"
#include "sim/fleet_plan.h"
#include "sim/mutate.h"
#include "sim/synth.h"
#include "src/host/live_host.h"
#include "src/host/snapshot_host.h"
#include "src/host/terminal.h"
#include "src/plan/quant.h"

namespace hwaccel::cli {

CLI::App* add_fleet_command(CLI::App& app, FleetArgs& args) {
  auto* cmd = app.add_subcommand(
      "fleet",
      "Detection over many hosts: a folder of snapshots, or --count hosts drawn from a "
      "spec (or --preset) with --seed; prints an aggregate table");
  auto* source =
      cmd->add_option("source", args.source, "A folder of NAME.yaml snapshots, or a spec");
  auto* preset = cmd->add_option("--preset", args.preset, "Draw hosts from a named spec");
  source->excludes(preset);
  cmd->add_option("-n,--count", args.count, "Hosts to draw from a spec (default 1000)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}));
  cmd->add_option("--seed", args.seed, "Seed of the draw (default 1): same seed, same fleet");
  cmd->add_option("-j,--jobs", args.jobs, "Hosts detected at once (default: one per CPU)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--fault-rate", args.fault_rate,
                  "Share of drawn hosts with a broken driver or tool (default 0.05)")
      ->check(finite_number(0, 1, "(a share of the hosts)"));
  cmd->add_option("--busy-rate", args.busy_rate,
                  "Share of drawn GPUs with most of their memory in use (default 0.30)")
      ->check(finite_number(0, 1, "(a share of the GPUs)"));
  cmd->add_option("--model", args.model,
                  "Which hosts can serve MODEL (a built-in name or path/config.json), as "
                  "`hwaccel plan` plans it on each host");
  cmd->add_option("--quant", args.quant,
                  "Weight format for --model (default: the model's published dtype)");
  return cmd;
}

namespace {

unsigned job_count(int requested, std::size_t work) {
  unsigned jobs =
      requested > 0 ? unsigned(requested) : std::max(1u, std::thread::hardware_concurrency());
  return std::max(1u, std::min<unsigned>(jobs, unsigned(std::min<std::size_t>(work, 256))));
}

// Runs body(i, aggregate) for i in [0, n) on `jobs` threads, each folding into
// its own aggregate; the sums do not depend on the order.
template <typename Body>
sim::FleetAggregate run_parallel(std::size_t n, unsigned jobs, Body body) {
  std::vector<sim::FleetAggregate> parts(jobs);
  std::atomic<std::size_t> next{0};
  auto worker = [&](unsigned t) {
    for (std::size_t i = next++; i < n; i = next++) body(i, parts[t]);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker, t);
  worker(0);
  for (auto& th : threads) th.join();
  sim::FleetAggregate all;
  for (const auto& p : parts) all.merge(p);
  return all;
}

}  // namespace

int run_fleet(const FleetArgs& args) {
  // Planning per host (--model): the same model, quantisation and catalogue
  // `hwaccel plan` would use, loaded once.
  Loaded planning;
  sim::HostVerdict verdict;
  std::string verdict_title;
  plan::PlanRequest request;
  if (!args.model.empty() || !args.quant.empty()) {
    if (args.model.empty()) {
      std::cerr << "error: --quant needs --model\n";
      return kExitUsage;
    }
    planning = load_catalogue("");
    if (int rc = load_model(args.model, "", planning); rc != kExitOk) return rc;
    const std::string qname = args.quant.empty() ? planning.spec->dtype : args.quant;
    const plan::QuantLevel* q = plan::find_quant(qname);
    if (!q) {
      std::cerr << "error: --quant " << qname << ": unknown; known: " << plan::quant_names()
                << "\n";
      return kExitUsage;
    }
    request.spec = *planning.spec;
    request.quant = *q;
    verdict = [&](const Detection& d, std::uint64_t reserve_bytes) {
      return sim::plan_verdict(d, reserve_bytes, request, *planning.catalogue);
    };
    verdict_title = "SERVES " + planning.spec->name + " " + qname;
  }
  if (args.source.empty() && args.preset.empty()) {
    std::cerr << "error: fleet needs a folder of snapshots, a spec file or --preset NAME\n";
    return kExitUsage;
  }
  // Every host allocates and frees the same few megabytes: keep them instead of
  // giving them back to the kernel after each host and faulting them in again
  // (a third of the time went to page faults in a profile of 100,000 hosts).
  ::mallopt(M_TRIM_THRESHOLD, 512 << 20);
  ::mallopt(M_MMAP_THRESHOLD, 64 << 20);
  const Reserve reserve;  // each host's HWACCEL_RESERVE_BYTES, else the default
  LiveHost live;
  const bool is_dir = args.preset.empty() && [&] {
    auto kind = live.stat(absolute_path(args.source));
    return kind && *kind == FileKind::directory;
  }();

  sim::FleetAggregate total;
  if (is_dir) {
    std::string dir = args.source;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    auto names = live.list(absolute_path(dir));
    if (!names) {
      std::cerr << "error: " << dir << ": cannot list (" << names.error().errno_name() << ")\n";
      return kExitBadInput;
    }
    std::vector<std::string> files;
    for (const auto& n : *names)
      if (n.size() > 5 && n.compare(n.size() - 5, 5, ".yaml") == 0) files.push_back(dir + "/" + n);
    total = run_parallel(files.size(), job_count(args.jobs, files.size()),
                         [&](std::size_t i, sim::FleetAggregate& agg) {
                           // Each file of DIR, and no link out of it.
                           auto loaded = load_snapshot_file(files[i], false, dir);
                           if (loaded.error) {
                             ++agg.errors[loaded.error->to_string()];
                             return;
                           }
                           sim::add_snapshot(agg, std::move(*loaded.snapshot), reserve, verdict);
                         });
  } else {
    int exit_code = kExitOk;
    auto spec = load_spec(args.source, args.preset, exit_code);
    if (!spec) return exit_code;
    const Snapshot base = sim::synthesize(*spec);
    sim::FleetDraw draw{args.fault_rate, args.busy_rate};
    std::mutex error_mutex;
    std::string first_error;
    total = run_parallel(args.count, job_count(args.jobs, args.count),
                         [&](std::size_t i, sim::FleetAggregate& agg) {
                           Snapshot host = base;
                           auto faults = sim::draw_faults(base, args.seed, i, draw);
                           auto applied = sim::apply_faults(host, faults);
                           if (!applied.ok()) {
                             std::lock_guard<std::mutex> lock(error_mutex);
                             if (first_error.empty()) first_error = applied.errors.front();
                           }
                           sim::add_snapshot(agg, std::move(host), reserve, verdict);
                         });
    if (!first_error.empty()) {
      std::cerr << "internal error: a drawn fault did not apply: " << first_error << "\n";
      return kExitInternal;
    }
  }
  std::cout << render_fleet(total, verdict_title);
  return total.errors.empty() ? kExitOk : kExitBadInput;
}

}  // namespace hwaccel::cli
