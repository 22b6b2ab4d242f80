#include "cli/common/export_command.h"

#include <iostream>

#include "cli/common/exit_codes.h"
#include "cli/common/host_source.h"
#include "cli/common/number_options.h"
#include "cli/common/output_file.h"
#include "src/export/fleet_exports.h"
#include "src/registry/detection.h"

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
  auto* host =
      cmd.add_option("--host", args.host_path, "Run on a snapshot FILE instead of this machine");
  host->excludes(root);
  cmd.add_flag("-q,--quiet", args.quiet, "Print no notes on stderr");
}

}  // namespace

CLI::App* add_export_command(CLI::App& app, ExportArgs& args) {
  auto* exp = app.add_subcommand(
      "export", "The accelerators in a fleet tool's format: nfd, slurm or prometheus");
  exp->require_subcommand(1);
  auto* nfd = exp->add_subcommand(
      "nfd", "Kubernetes Node Feature Discovery labels (a features.d/ file, hwaccel.io/...)");
  add_common(*nfd, args);
  nfd->callback([&args] { args.kind = "nfd"; });
  auto* slurm =
      exp->add_subcommand("slurm", "Slurm gres.conf lines and the slurm.conf Gres= fragment");
  add_common(*slurm, args);
  slurm
      ->add_option("--part", args.part,
                   "all (default), gres (gres.conf only) or node (slurm.conf only)")
      ->check(CLI::IsMember({"all", "gres", "node"}));
  slurm->callback([&args] { args.kind = "slurm"; });
  auto* prom = exp->add_subcommand(
      "prometheus", "A node_exporter textfile-collector file (memory, readiness, counts)");
  add_common(*prom, args);
  prom->callback([&args] { args.kind = "prometheus"; });
  return exp;
}

int run_export(const ExportArgs& args) {
  auto only = parse_only(args.only);
  if (only.exit != kExitOk) return only.exit;
  auto opened = open_host(args.host_path, args.root, args.timeout_s);
  if (opened.exit != kExitOk) return opened.exit;
  DetectOptions options;
  options.only = only.names;
  Detection d = detect(*opened.host, options);

  std::string text;
  if (args.kind == "nfd") {
    text = render_nfd(d);
  } else if (args.kind == "slurm") {
    SlurmPart part = args.part == "gres"   ? SlurmPart::gres
                     : args.part == "node" ? SlurmPart::node
                                           : SlurmPart::all;
    text = render_slurm(*opened.host, d, part);
  } else {
    text = render_prometheus(d);
  }

  if (args.output.empty() || args.output == "-") {
    std::cout << text;
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
  if (!args.quiet) std::cerr << "wrote " << args.output << "\n";
  return kExitOk;
}

}  // namespace hwaccel::cli
