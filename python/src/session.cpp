#include "python/src/session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "cli/common/output_file.h"
#include "src/export/export_inputs.h"
#include "src/host/live_host.h"
#include "src/host/recording_host.h"
#include "src/host/redaction.h"
#include "src/host/snapshot_host.h"
#include "src/host/terminal.h"
#include "src/plan/catalogue.h"
#include "src/plan/devices.h"
#include "src/plan/model_spec.h"
#include "src/plan/planner.h"
#include "src/plan/quant.h"
#include "src/plan/runtime.h"
#include "src/registry/request_text.h"
#include "src/registry/reserve.h"
#include "src/registry/selection.h"
#include "src/report/detect_json.h"
#include "src/report/plan_report.h"
#include "src/snapshot/snapshot_codec.h"

namespace hwaccel::python {

namespace {

// The CLI's exit codes (cli/common/exit_codes.h), by name.
constexpr int kUsage = 2, kBadInput = 4, kCannotWrite = 5, kBadReserve = 6, kNotCompiled = 7,
              kNotReady = 8, kUnsatisfied = 9;

std::string join(const std::vector<std::string>& words, const char* sep) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : sep) + w;
  return out;
}

void check_only(const std::vector<std::string>& only) {
  const auto known = reported_backend_names();
  for (const auto& name : only)
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw Failure(kUsage, "only: unknown backend \"" + name +
                                "\" (this build has: " + join(known, ", ") + ")");
}

}  // namespace

Detected detect_source(const Source& source, const std::optional<std::string>& record_path,
                       bool redact_recording, bool force) {
  check_only(source.only);
  if (source.snapshot && source.root) throw Failure(kUsage, "host and root exclude each other");
  if (source.snapshot && record_path) throw Failure(kUsage, "record a live host, not a snapshot");
  if (source.root_tools && !source.root) throw Failure(kUsage, "root_tools needs root");
  Detected out;
  std::unique_ptr<Host> base;
  SnapshotHost* replay = nullptr;
  if (source.snapshot) {
    auto loaded = load_snapshot_file(*source.snapshot);
    if (loaded.error) throw Failure(kBadInput, loaded.error->to_string());
    auto snapshot = std::make_unique<SnapshotHost>(std::move(*loaded.snapshot));
    replay = snapshot.get();
    base = std::move(snapshot);
    out.source = "snapshot(" + *source.snapshot + ")";
  } else {
    LiveHostOptions live;
    if (source.root) live.root = *source.root;
    live.root_tools = source.root_tools;
    // As the CLI: 1 ms to a day; nan and infinities are the default.
    const double s = source.timeout_s.value_or(5.0);
    if (!(s > 0)) throw Failure(kUsage, "timeout: expected a positive number of seconds");
    const double ms = std::isfinite(s) ? std::clamp(s * 1000, 1.0, 86400e3) : 5000;
    live.default_timeout = std::chrono::milliseconds(static_cast<long long>(ms));
    base = std::make_unique<LiveHost>(live);
    out.source = source.root ? "root(" + *source.root + ")" : "live";
  }
  std::unique_ptr<RecordingHost> recorder;
  Host* host = base.get();
  if (record_path) {
    recorder = std::make_unique<RecordingHost>(*base);
    host = recorder.get();
  }
  DetectOptions options;
  options.only = source.only;
  out.detection = detect(*host, options);
  out.reserve_env = host->env(kReserveEnv);
  if (replay)  // the same warning `hwaccel detect --host` adds
    for (const auto& argv : replay->misses())
      out.detection.warnings.push_back(
          {"host", "replay miss: the snapshot has no run of `" + join(argv, " ") +
                       "` (answered as not-found; the recorder and this build disagree)"});
  if (recorder) {
    read_export_inputs(*host, out.detection);
    SnapshotInfo info;
    info.label = host->facts().hostname;
    info.origin = "recorded";
    info.recorder = std::string("hwaccel ") + HWACCEL_VERSION;
    Snapshot snapshot = recorder->snapshot(info);
    if (redact_recording) redact(snapshot);
    if (auto why = cli::write_file_atomically(
            *record_path, write_snapshot(snapshot),
            force ? cli::ExistingFile::replace : cli::ExistingFile::keep);
        !why.empty())
      throw Failure(kCannotWrite, "record: " + why);
  }
  return out;
}

std::string detect_json(const Detected& detected) {
  return render_detect_json(detected.detection);
}

namespace {

Reserve reserve_of(const Detected& detected, const std::optional<std::string>& reserve) {
  auto choice = choose_reserve(reserve, detected.reserve_env);
  if (!choice.reserve) throw Failure(kBadReserve, choice.error);
  return *choice.reserve;
}

}  // namespace

Selected select_request(const Detected& detected, const std::string& request,
                        const std::optional<std::string>& reserve) {
  auto parsed = parse_request_text(request);
  if (!parsed.request) throw Failure(kUsage, parsed.error);
  Selected out;
  Reserve r = reserve_of(detected, reserve);
  out.reserve_bytes = r.bytes;
  out.reserve_source = r.source;
  Detection detection = detected.detection;
  apply_reserve(detection, r);
  auto result = resolve_request(detection, *parsed.request, backend_names());
  switch (result.outcome) {
    case RequestOutcome::selected:
      out.entry = int(*result.entry);
      out.reason = result.message;
      out.device_json = detect_to_json(detection)["devices"][*result.entry].dump();
      return out;
    case RequestOutcome::bad_request:
      throw Failure(kUsage, result.message);
    case RequestOutcome::not_compiled:
      throw Failure(kNotCompiled, result.message);
    case RequestOutcome::not_ready:
      throw Failure(kNotReady, result.message);
    case RequestOutcome::unsatisfiable:
      break;
  }
  throw Failure(kUnsatisfied, result.message);
}

Planned plan_model(const Detected& detected, const PlanArgs& args) {
  plan::ModelResult model;
  const std::string& m = args.model;
  if (m.find('/') != std::string::npos || (m.size() > 5 && m.substr(m.size() - 5) == ".json")) {
    LiveHost host;  // the model file is read through the Host, as the CLI does
    auto text = host.read(absolute_path(m));
    if (!text) throw Failure(kBadInput, "model " + m + ": " + text.error().message);
    model = plan::parse_hf_config(*text, m);
    if (!model.spec) throw Failure(kBadInput, model.error);
  } else {
    model = plan::builtin_model(m);
    if (!model.spec) throw Failure(kUsage, model.error);
  }
  const std::string qname = args.quant.value_or(model.spec->dtype);
  const plan::QuantLevel* q = plan::find_quant(qname);
  if (!q) throw Failure(kUsage, "quant " + qname + ": unknown; known: " + plan::quant_names());
  if (!plan::kv_bytes_per_element(args.kv))
    throw Failure(kUsage, "kv " + args.kv + ": expected fp16, fp8 or q8_0");
  if (args.runtime) {
    const auto names = plan::runtime_names();
    if (std::find(names.begin(), names.end(), *args.runtime) == names.end())
      throw Failure(kUsage, "runtime " + *args.runtime +
                                ": unknown; known: llama.cpp, vllm, "
                                "sglang, trt-llm, mlx");
  }
  if (args.flash_attn != "on" && args.flash_attn != "off" && args.flash_attn != "auto")
    throw Failure(kUsage, "flash_attn " + args.flash_attn + ": expected on, off or auto");
  if (args.gpu_memory_utilization &&
      !(*args.gpu_memory_utilization >= 0.01 && *args.gpu_memory_utilization <= 1.0))
    throw Failure(kUsage, "gpu_memory_utilization: expected 0.01..1");
  if (args.context < 1 || args.context > 10000000 || args.batch < 1 || args.batch > 100000 ||
      args.decode_batch < 1 || args.decode_batch > 100000)
    throw Failure(kUsage, "context (1..10000000), batch and decode_batch (1..100000) out of range");
  const plan::Catalogue& catalogue = plan::builtin_catalogue();
  Reserve r = reserve_of(detected, args.reserve);
  plan::DeviceOptions o;
  o.on = args.on;
  o.add = args.add;
  o.remove = args.remove;
  o.reserve_bytes = double(r.bytes);
  auto built = plan::build_devices(detected.detection, catalogue, o);
  if (!built.set) throw Failure(kUsage, built.error);
  plan::PlanRequest req;
  req.spec = *model.spec;
  req.quant = *q;
  req.workload.context = args.context;
  req.workload.batch = args.batch;
  req.workload.kv = args.kv;
  req.workload.flash_attention = args.flash_attn != "off";
  req.workload.gpu_memory_utilization = args.gpu_memory_utilization.value_or(0);
  req.runtime = args.runtime.value_or("");
  req.decode_batch = args.decode_batch;
  auto result = plan::make_plan(req, *built.set, catalogue);
  PlanContext ctx{detected.source, catalogue.origin, format_mib(r.bytes) + " (" + r.source + ")"};
  Planned out;
  out.json = render_plan_json(result, *built.set, ctx);
  out.text = render_plan_text(result, *built.set, ctx);
  out.fits = result.fits();
  return out;
}

}  // namespace hwaccel::python
