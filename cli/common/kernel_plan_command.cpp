#include "cli/common/kernel_plan_command.h"

#include <iostream>
#include <memory>

#include "cli/common/exit_codes.h"
#include "cli/common/host_source.h"
#include "cli/common/output_file.h"
#include "src/host/live_host.h"
#include "src/host/recording_host.h"
#include "src/host/terminal.h"
#include "src/kernels/kernel_plan.h"
#include "src/kernels/kernel_report.h"
#include "src/snapshot/snapshot_codec.h"
#include "src/vocabulary/path.h"

namespace hwaccel::cli {

void add_kernel_plan_flags(CLI::App& cmd, PlanArgs& a) {
  cmd.add_option("--hardware", a.hardware, "Kernel plan: a device id of the tree's DEVICES.toml");
  cmd.add_option("--kernels", a.kernels, "Kernel plan: the kernel tree DIR (docs/kernel-tree.md)");
  cmd.add_option("--format", a.format, "Kernel plan output: report (default), plan or json")
      ->check(CLI::IsMember({"report", "plan", "json"}));
  cmd.add_option("--check", a.check,
                 "Kernel plan: compare with a golden FILE; exit 10 with a diff when it differs");
  cmd.add_option("--record-tree", a.record_tree,
                 "Kernel plan: also write the tree as read to a snapshot FILE (replay it with "
                 "--host FILE --kernels DIR)");
}

int run_kernel_plan(const PlanArgs& a) {
  if (a.kernels.empty() || a.hardware.empty()) {
    std::cerr << "error: a kernel plan needs both --hardware ID and --kernels DIR\n";
    return kExitUsage;
  }
  if (a.model.empty() == a.params.empty()) {
    std::cerr << "error: give one of --model NAME|config.json or --params COUNT\n";
    return kExitUsage;
  }
  Loaded l;
  if (int rc = load_model(a.model, a.params, l); rc != kExitOk) return rc;
  int exit = kExitOk;
  const plan::QuantLevel* q = requested_quant(a, l, exit);
  if (!q) return exit;
  // The tree is read through the Host: this machine, a --root tree, or a snapshot.
  auto opened = open_host(a.host_path, a.root, a.timeout_s, a.root_tools);
  if (opened.exit != kExitOk) return opened.exit;
  // A relative DIR is relative to the working folder, on this machine and in a
  // snapshot alike (which holds the tree at the absolute path it was recorded
  // with: `plan --host FILE --kernels DIR` from the folder of the recording
  // finds it). Normalised, so that ./DIR and DIR are one tree.
  const std::string typed = absolute_path(a.kernels);
  std::string dir = normalize_absolute(typed).value_or(typed);
  std::unique_ptr<RecordingHost> recorder;
  Host* host = opened.host.get();
  if (!a.record_tree.empty()) {
    recorder = std::make_unique<RecordingHost>(*opened.host);
    host = recorder.get();
  }
  auto files = kernels::read_tree_files(*host, dir);
  if (!files.error.empty()) {
    std::cerr << "error: --kernels " << files.error << "\n";
    return kExitBadInput;
  }
  for (const auto& note : files.notes) std::cerr << "note: --kernels " << note << "\n";
  if (recorder) {
    SnapshotInfo info;
    info.label = "kernel tree " + dir;
    info.origin = "recorded";
    info.recorder = std::string("hwaccel ") + HWACCEL_VERSION;
    recorder->facts();  // recorded with the tree, as every snapshot has them
    // The tree is all a replay needs: no host name, no environment.
    Snapshot snapshot = recorder->snapshot(info);
    snapshot.facts.hostname = "kernel-tree";
    snapshot.env.clear();
    // A link in the tree is not followed; where it points is not part of the
    // tree either (and may name the user's own folders): kept as a link, its
    // target left out.
    for (auto& [path, entry] : snapshot.files)
      if (entry.kind == FileEntry::Kind::link && path.rfind(dir + "/", 0) == 0)
        entry.target = "not-recorded";
    if (auto why = write_file_atomically(a.record_tree, write_snapshot(snapshot),
                                         a.force ? ExistingFile::replace : ExistingFile::keep);
        !why.empty()) {
      std::cerr << "error: --record-tree: " << why << "\n";
      return kExitCannotWrite;
    }
  }
  std::string root = a.kernels;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  auto tree = kernels::parse_tree(files.files, root);
  if (!tree.tree) {
    std::cerr << "error: " << tree.error << "\n";
    return kExitBadInput;
  }
  kernels::KernelRequest req;
  req.device = a.hardware;
  req.spec = *l.spec;
  req.quant = *q;
  req.workload.context = a.context;
  req.workload.batch = a.batch;
  req.workload.kv = a.kv;
  auto made = kernels::make_kernel_plan(*tree.tree, req);
  if (!made.plan) {
    std::cerr << "error: " << made.error << "\n";
    return made.error.rfind("unknown device id", 0) == 0 ? kExitUsage : kExitBadInput;
  }
  kernels::ReportContext ctx{root};
  const auto& p = *made.plan;
  std::string out = a.format == "json"   ? kernels::render_kernel_json(p, ctx)
                    : a.format == "plan" ? kernels::render_kernel_plan_lines(p, ctx)
                                         : kernels::render_kernel_report(p, ctx);
  if (!a.check.empty()) {
    LiveHost live;  // the golden is a file of this machine, even when the tree is recorded
    auto expected = live.read(absolute_path(a.check));
    if (!expected) {
      std::cerr << "error: --check " << a.check << ": " << expected.error().message << "\n";
      return kExitBadInput;
    }
    std::string diff = kernels::diff_lines(*expected, out, a.check);
    if (!diff.empty()) {
      std::cout << diff;
      return kExitCheckFailed;
    }
    std::cout << "ok: " << a.check << " matches\n";
    return kExitOk;
  }
  std::cout << out;
  for (const auto& e : p.errors) std::cerr << "error: " << e << "\n";
  if (!p.errors.empty()) return kExitBadInput;
  if (!p.violations.empty() || p.has_gaps()) return kExitUnsatisfied;
  return p.fits() ? kExitOk : kExitDoesNotFit;
}

}  // namespace hwaccel::cli
