#include "cli/common/export_command.h"

#include <chrono>
#include <iostream>
#include <optional>

#include "cli/common/exit_codes.h"
#include "cli/common/host_source.h"
#include "cli/common/number_options.h"
#include "cli/common/output_file.h"
#include "cli/common/root_tools_flag.h"
#include "src/export/fleet_exports.h"
#include "src/export/time_text.h"
#include "src/host/stop_signals.h"
#include "src/registry/detection.h"
#include "src/registry/identity.h"

namespace hwaccel::cli {

namespace {

void add_common(CLI::App& cmd, ExportArgs& args) {
  cmd.add_option("-o,--output", args.output,
                 "Write to FILE (atomically: a hidden temporary, then renamed) instead of stdout");
  cmd.add_option("--only", args.only, "Probe only these backends (comma-separated)");
  cmd.add_option("--timeout", args.timeout_s, "Seconds each probe tool may run (default 5)")
      ->check(timeout_seconds());
  auto* root = cmd.add_option("--root", args.root, "Read files under DIR as if it were /")
                   ->check(CLI::ExistingDirectory);
  add_root_tools_flag(cmd, args.root_tools, root);
  auto* host =
      cmd.add_option("--host", args.host_path, "Run on a snapshot FILE instead of this machine");
  host->excludes(root);
  auto* interval = cmd.add_option(
      "--interval", args.interval,
      "Agent mode: detect and rewrite the output every DURATION (300, 60s, 5m, 1h) until SIGTERM");
  interval->check([](const std::string& v) {
    return parse_interval(v) ? std::string() : "expected 1s to 7d, e.g. 60s, 5m or 1h: " + v;
  });
  cmd.add_flag("--oneshot", args.oneshot, "Detect and write once, then exit (the default)")
      ->excludes(interval);
  cmd.add_flag("-q,--quiet", args.quiet, "Print no notes on stderr");
}

void add_mig(CLI::App& cmd, ExportArgs& args) {
  cmd.add_option("--mig-strategy", args.mig,
                 "How MIG slices are offered, as GPU Feature Discovery: none, single or mixed "
                 "(default)")
      ->check(CLI::IsMember({"none", "single", "mixed"}));
}

std::string render(Host& host, const Detection& d, const ExportArgs& args,
                   std::chrono::seconds interval) {
  const MigStrategy mig = parse_mig_strategy(args.mig).value_or(MigStrategy::mixed);
  if (args.kind == "nfd") {
    NfdOptions o;
    o.mig = mig;
    o.nvidia_labels = args.nvidia_labels;
    // An agent's labels expire three rounds after their detection: nfd-worker
    // drops them when the agent dies.
    if (interval.count() > 0)
      if (auto t = rfc3339_to_unix(d.host.discovered_at))
        o.expiry_time = unix_to_rfc3339(*t + 3 * interval.count());
    return render_nfd(d, o);
  }
  if (args.kind == "slurm") {
    SlurmOptions o;
    o.part = args.part == "gres"   ? SlurmPart::gres
             : args.part == "node" ? SlurmPart::node
                                   : SlurmPart::all;
    o.igpu = args.igpu;
    return render_slurm(host, d, o);
  }
  PrometheusOptions o;
  o.mig = mig;
  o.snake_case = args.snake_case;
  return render_prometheus(host, d, o);
}

// One line a log reader can follow: what changed is what a person acts on.
std::string state_line(const Detection& d) {
  std::string ready, down;
  for (const auto& b : d.backends) {
    if (b.name == "cpu") continue;
    if (b.ready)
      ready += (ready.empty() ? "" : ",") + b.name;
    else if (b.reason && b.reason->code != ReasonCode::no_device)
      down +=
          (down.empty() ? "" : ",") + b.name + "(" + std::string(to_string(b.reason->code)) + ")";
  }
  return std::to_string(count_physical_accelerators(d.entries, true)) + " of " +
         std::to_string(count_physical_accelerators(d.entries, false)) +
         " accelerators ready; backends ready: " + (ready.empty() ? "none" : ready) +
         (down.empty() ? "" : "; not working: " + down);
}

int write_out(const ExportArgs& args, const std::string& text, bool agent) {
  if (args.output.empty() || args.output == "-") {
    std::cout << text << std::flush;
    return kExitOk;
  }
  if (auto why = write_file_atomically(args.output, text); !why.empty()) {
    // A refusal says why itself; a failed write may be the folder's fault.
    bool refused = why.find("nothing was written") != std::string::npos;
    std::cerr << "error: --output: " << why
              << (refused ? "" : " (does the directory exist and may this user write to it?)")
              << "\n";
    return kExitCannotWrite;
  }
  if (!args.quiet && !agent) std::cerr << "wrote " << args.output << "\n";
  return kExitOk;
}

}  // namespace

std::optional<long> parse_interval(const std::string& text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  long total = 0;
  std::size_t i = 0;
  bool unit_seen = false;
  while (i < text.size()) {
    std::size_t start = i;
    long n = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && n < 10'000'000)
      n = n * 10 + (text[i++] - '0');
    if (i == start) return std::nullopt;
    long unit = 1;
    if (i == text.size()) {
      if (unit_seen) return std::nullopt;  // "1h30" is ambiguous
    } else {
      switch (text[i++]) {
        case 's':
          unit = 1;
          break;
        case 'm':
          unit = 60;
          break;
        case 'h':
          unit = 3600;
          break;
        case 'd':
          unit = 86400;
          break;
        default:
          return std::nullopt;
      }
      unit_seen = true;
    }
    total += n * unit;
    if (total > 7 * 86400) return std::nullopt;
  }
  if (total < 1) return std::nullopt;
  return total;
}

CLI::App* add_export_command(CLI::App& app, ExportArgs& args) {
  auto* exp = app.add_subcommand(
      "export", "The accelerators in a fleet tool's format: nfd, slurm or prometheus");
  exp->require_subcommand(1);
  auto* nfd = exp->add_subcommand(
      "nfd", "Kubernetes Node Feature Discovery labels (a features.d/ file, hwaccel.io/...)");
  add_common(*nfd, args);
  add_mig(*nfd, args);
  nfd->add_flag("--nvidia-labels", args.nvidia_labels,
                "Also write the cuda family's labels under nvidia.com/ as GPU Feature Discovery "
                "names them");
  nfd->callback([&args] { args.kind = "nfd"; });
  auto* slurm =
      exp->add_subcommand("slurm", "Slurm gres.conf lines and the slurm.conf Gres= fragment");
  add_common(*slurm, args);
  slurm
      ->add_option("--part", args.part,
                   "all (default), gres (gres.conf only) or node (slurm.conf only)")
      ->check(CLI::IsMember({"all", "gres", "node"}));
  slurm->add_flag("--igpu", args.igpu,
                  "Declare an integrated GPU as Name=gpu even beside discrete GPUs");
  slurm->callback([&args] { args.kind = "slurm"; });
  auto* prom = exp->add_subcommand(
      "prometheus", "A node_exporter textfile-collector file (memory, readiness, counts)");
  add_common(*prom, args);
  add_mig(*prom, args);
  prom->add_flag("--snake-case", args.snake_case,
                 "Name the info series' model label model_name, not DCGM's modelName: "
                 "promtool check metrics then reports nothing and exits 0");
  prom->callback([&args] { args.kind = "prometheus"; });
  return exp;
}

int run_export(const ExportArgs& args) {
  auto only = parse_only(args.only);
  if (only.exit != kExitOk) return only.exit;
  const std::chrono::seconds interval{args.interval.empty() ? 0 : *parse_interval(args.interval)};
  // Agent mode: block the stop signals before anything may start a thread
  // (a thread without the mask would take SIGTERM's default: death mid-write).
  std::optional<StopSignals> signals;
  if (interval.count() > 0) signals.emplace();
  auto opened = open_host(args.host_path, args.root, args.timeout_s, args.root_tools);
  if (opened.exit != kExitOk) return opened.exit;
  DetectOptions options;
  options.only = only.names;
  if (!signals) {
    Detection d = detect(*opened.host, options);
    return write_out(args, render(*opened.host, d, args, interval), false);
  }

  std::string last_state;
  while (true) {
    std::string state;
    {
      // Nothing outlives a round but its state line: memory stays flat.
      Detection d = detect(*opened.host, options);
      if (int exit = write_out(args, render(*opened.host, d, args, interval), true);
          exit != kExitOk)
        return exit;
      state = state_line(d);
      if (state != last_state && !args.quiet)
        std::cerr << "hwaccel export " << args.kind << ": "
                  << (d.host.discovered_at.empty() ? "" : d.host.discovered_at + " ") << state
                  << (args.output.empty() ? "" : " (" + args.output + ")") << "\n";
    }
    last_state = std::move(state);
    if (int sig = signals->wait(interval); sig != 0) {
      if (!args.quiet)
        std::cerr << "hwaccel export " << args.kind << ": stopping on " << signal_name(sig) << "\n";
      return kExitOk;
    }
  }
}

}  // namespace hwaccel::cli
