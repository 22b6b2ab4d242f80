#include "cli/common/fleet_command.h"

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "cli/common/exit_codes.h"
#include "cli/common/number_options.h"
#include "cli/common/output_file.h"
#include "cli/common/plan_command.h"
#include "cli/common/synth_command.h"
#include "sim/fleet.h"
#include "sim/fleet_json.h"
#include "sim/fleet_part.h"
#include "sim/fleet_plan.h"
#include "sim/fleet_shard.h"
#include "sim/mutate.h"
#include "sim/synth.h"
#include "src/host/live_host.h"
#include "src/host/sha256.h"
#include "src/host/snapshot_host.h"
#include "src/host/terminal.h"
#include "src/plan/quant.h"
#include "src/snapshot/snapshot_codec.h"

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
  add_output_flags(*cmd, args.out);
  cmd->add_option("--shard", args.shard,
                  "K/N: draw only shard K of N (K from 0: JOB_COMPLETION_INDEX, or "
                  "SLURM_ARRAY_TASK_ID of --array=0-(N-1)) and write its partial result to -o");
  cmd->add_option("-o,--output", args.output,
                  "With --shard: the partial result's file (hwsim-fleet-part/1 JSON; - for "
                  "stdout), for `hwsim fleet merge`");
  auto* merge = cmd->add_subcommand(
      "merge",
      "Join the partial results of every shard of one fleet (`--shard K/N -o PART`) "
      "into the report a single run prints");
  merge->add_option("parts", args.parts, "PART.json files, or folders of them (every *.json)")
      ->required();
  add_output_flags(*merge, args.out);
  merge->callback([&args] { args.merge = true; });
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
  if (args.merge) return run_fleet_merge(args);
  std::optional<sim::Shard> shard;
  if (!args.shard.empty()) {
    std::string why;
    shard = sim::parse_shard(args.shard, why);
    if (!shard) {
      std::cerr << "error: --shard " << args.shard << ": " << why << "\n";
      return kExitUsage;
    }
    if (args.output.empty()) {
      std::cerr << "error: --shard needs -o FILE: where its partial result goes (- for stdout)\n";
      return kExitUsage;
    }
  } else if (!args.output.empty()) {
    std::cerr << "error: -o writes a shard's partial result: it needs --shard K/N (the whole "
                 "fleet: --shard 0/1)\n";
    return kExitUsage;
  }
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

  if (is_dir && shard) {
    std::cerr << "error: --shard draws a slice of a fleet drawn from a spec or --preset; a "
                 "folder of snapshots is split by splitting the folder\n";
    return kExitUsage;
  }
  const Format format = output_format(args.out);
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
    const sim::HostRange range =
        shard ? sim::shard_range(args.count, *shard) : sim::HostRange{0, args.count};
    std::mutex error_mutex;
    std::string first_error;
    total = run_parallel(range.size(), job_count(args.jobs, range.size()),
                         [&](std::size_t i, sim::FleetAggregate& agg) {
                           auto error = sim::add_drawn_host(agg, base, args.seed, range.first + i,
                                                            draw, reserve, verdict);
                           if (!error.empty()) {
                             std::lock_guard<std::mutex> lock(error_mutex);
                             if (first_error.empty()) first_error = error;
                           }
                         });
    if (!first_error.empty()) {
      std::cerr << "internal error: a drawn fault did not apply: " << first_error << "\n";
      return kExitInternal;
    }
    if (shard) {
      sim::FleetPart part;
      part.fleet = {HWACCEL_VERSION,
                    args.preset.empty() ? args.source : "preset:" + args.preset,
                    sha256_hex(write_snapshot(base)),
                    args.seed,
                    args.count,
                    args.fault_rate,
                    args.busy_rate,
                    verdict_title};
      part.shard = *shard;
      part.aggregate = std::move(total);
      const std::string text = sim::part_to_text(part);
      if (args.output == "-") {
        std::cout << text;
        return kExitOk;
      }
      if (auto why = write_file_atomically(args.output, text); !why.empty()) {
        std::cerr << "error: " << why << "\n";
        return kExitCannotWrite;
      }
      if (!args.out.quiet)
        std::cerr << "hwsim fleet: shard " << args.shard << ": hosts " << range.first << " to "
                  << range.end << " of " << args.count << " -> " << args.output << "\n";
      return kExitOk;
    }
  }
  if (format == Format::text)
    std::cout << render_fleet(total, verdict_title);
  else
    print_document(sim::fleet_to_json(total, verdict_title), format);
  return total.errors.empty() ? kExitOk : kExitBadInput;
}

}  // namespace hwaccel::cli
