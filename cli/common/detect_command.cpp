#include "cli/common/detect_command.h"

#include <iostream>
#include <memory>

#include "cli/common/detection_cache_io.h"
#include "cli/common/exit_codes.h"
#include "cli/common/host_source.h"
#include "cli/common/number_options.h"
#include "cli/common/output_file.h"
#include "cli/common/root_tools_flag.h"
#include "src/export/export_inputs.h"
#include "src/host/live_host.h"
#include "src/host/memo_host.h"
#include "src/host/recording_host.h"
#include "src/host/redaction.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "src/registry/summary.h"
#include "src/report/detect_json.h"
#include "src/report/detect_text.h"
#include "src/report/summary_report.h"
#include "src/report/timings_report.h"
#include "src/snapshot/snapshot_codec.h"
#include "src/vocabulary/sanitizer.h"

namespace hwaccel::cli {

void add_detect_flags(CLI::App& cmd, DetectArgs& args) {
  add_output_flags(cmd, args.out);
  cmd.add_flag("--summary", args.summary,
               "Print a summary instead: devices per family, the best device, memory, warnings "
               "(hwaccel-summary/1 with --json)");
  cmd.add_flag("-v,--verbose", args.verbose,
               "Text report: add per-device details (NUMA, CPU affinity, MIG parents, memory "
               "sources) and the topology between devices");
  cmd.add_option("--only", args.only, "Probe only these backends (comma-separated: cuda,cpu)");
  cmd.add_option("--timeout", args.timeout_s, "Seconds each probe tool may run (default 5)")
      ->check(timeout_seconds());
  auto* record = cmd.add_option("--record", args.record_path,
                                "Record every answer of this host into a snapshot FILE");
  cmd.add_flag("--timings", args.timings,
               "Also print how long each backend's probe and the whole detection took");
  cmd.add_flag("--force", args.force, "With --record: replace FILE if it exists");
  cmd.add_flag("--no-redact", args.no_redact,
               "Keep UUIDs, serials, hostnames and MACs in the recording");
  auto* root = cmd.add_option("--root", args.root, "Read files under DIR as if it were /")
                   ->check(CLI::ExistingDirectory);
  add_root_tools_flag(cmd, args.root_tools, root);
  auto* host =
      cmd.add_option("--host", args.host_path, "Run on a snapshot FILE instead of this machine");
  cmd.add_flag("--strict", args.strict,
               "With --host: a tool run the snapshot lacks is an error (exit 3)");
  auto* cache = cmd.add_option("--cache", args.cache_ttl,
                               "Reuse this machine's last detection if younger than TTL (300, 90s, "
                               "15m, 2h); kept in $XDG_CACHE_HOME/hwaccel/");
  host->excludes(root)->excludes(record);
  cache->excludes(host)->excludes(record);
}

namespace {

std::string join(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

}  // namespace

void print_detection(const Detection& detection, const DetectArgs& args) {
  const Format format = output_format(args.out);
  if (args.summary) {
    Summary summary = summarize(detection);
    if (format == Format::text)
      print_text(render_summary_text(detection, summary));
    else
      print_document(summary_to_json(detection, summary), format);
    return;
  }
  if (format == Format::text) {
    std::string text = render_detect_text(detection, {args.verbose});
    if (args.timings) text += render_timings_text(detection);
    print_text(text);
  } else if (format == Format::json && !args.timings) {
    std::cout << render_detect_json(detection);  // the golden bytes, unchanged
  } else {
    nlohmann::json doc = detect_to_json(detection);
    if (args.timings) doc["timings"] = timings_json(detection);
    print_document(doc, format);
  }
}

int run_detect(const DetectArgs& args) {
  auto only = parse_only(args.only);
  if (only.exit != kExitOk) return only.exit;
  DetectOptions options;
  options.only = only.names;

  auto opened = open_host(args.host_path, args.root, args.timeout_s, args.root_tools);
  if (opened.exit != kExitOk) return opened.exit;
  std::unique_ptr<Host> base = std::move(opened.host);
  SnapshotHost* replay = opened.snapshot;

  std::unique_ptr<RecordingHost> recorder;
  Host* host = base.get();
  if (!args.record_path.empty()) {
    recorder = std::make_unique<RecordingHost>(*base);
    host = recorder.get();
  }
  // Kept to the exit with the host (below): freeing its answers was 4 % of
  // `detect --host dgx-h100.yaml` (issue 37, perf record).
  auto memo = std::make_unique<MemoHost>(*host);
  options.memo = memo.get();

  auto detected =
      detect_with_cache(*host, options, args.cache_ttl, args.root, args.root_tools, args.out.quiet);
  if (detected.exit != kExitOk) return detected.exit;
  // Left to the exit too, once printed (2 % of `detect --host dgx-h100.yaml`).
  auto kept = std::make_unique<Detection>(std::move(detected.detection));
  Detection& detection = *kept;

  if (replay) {
    auto misses = replay->misses();
    if (!misses.empty() && args.strict) {
      for (const auto& argv : misses)
        std::cerr << "error: " << args.host_path << ": replay miss: the snapshot has no run of `"
                  << join(argv) << "`\n";
      return kExitReplayMiss;
    }
    if (replay->snapshot().host.origin == "imported" && !misses.empty()) {
      // An imported tree holds files, not tool output: every run is a miss, and
      // that is expected, not a disagreement. One line says so.
      std::string runs;
      for (const auto& argv : misses) runs += (runs.empty() ? "`" : ", `") + join(argv) + "`";
      detection.warnings.push_back(
          {"host", "imported tree: no tool output was imported, so " + runs +
                       " answered as not-found (expected; attach outputs with hwsim import "
                       "--tool)"});
    } else {
      for (const auto& argv : misses)
        detection.warnings.push_back(
            {"host", "replay miss: the snapshot has no run of `" + join(argv) +
                         "` (answered as not-found; the recorder and this build disagree)"});
    }
  }

  if (recorder) {
    read_export_inputs(*host, detection);  // so that `export --host` replays as live
    SnapshotInfo info;
    info.label = host->facts().hostname;
    info.origin = "recorded";
    info.recorder = std::string("hwaccel ") + HWACCEL_VERSION;
    Snapshot snapshot = recorder->snapshot(info);
    if (!args.no_redact) redact(snapshot);
    if (auto why = write_file_atomically(args.record_path, write_snapshot(snapshot),
                                         args.force ? ExistingFile::replace : ExistingFile::keep);
        !why.empty()) {
      std::cerr << "error: --record: " << why << "\n";
      return kExitCannotWrite;
    }
  }

  print_detection(detection, args);
  recorder.reset();
  // The host is the last big object of a `detect` that has printed its answer:
  // freeing a loaded snapshot entry by entry (408 files of the DGX H100's 516 KB)
  // was 1.7 % of `detect --host dgx-h100.yaml` (issue 37, perf record).
  free_at_exit(std::move(kept));
  free_at_exit(std::move(memo));
  free_at_exit(std::move(base));
  return kExitOk;
}

}  // namespace hwaccel::cli
