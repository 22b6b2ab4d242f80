#include "cli/common/devices_command.h"

#include <iostream>
#include <memory>

#include "cli/common/detection_cache_io.h"
#include "cli/common/exit_codes.h"
#include "cli/common/host_source.h"
#include "cli/common/number_options.h"
#include "cli/common/root_tools_flag.h"
#include "src/host/live_host.h"
#include "src/host/snapshot_host.h"
#include "src/host/text_file.h"
#include "src/registry/detection.h"
#include "src/registry/request_text.h"
#include "src/registry/reserve.h"
#include "src/registry/saved_detection.h"
#include "src/registry/selection.h"
#include "src/report/devices_report.h"

namespace hwaccel::cli {

void add_devices_flags(CLI::App& cmd, DevicesArgs& args) {
  add_output_flags(cmd, args.out);
  cmd.add_option("--only", args.only, "Probe only these backends (comma-separated)");
  cmd.add_option("--timeout", args.timeout_s, "Seconds each probe tool may run (default 5)")
      ->check(timeout_seconds());
  auto* root = cmd.add_option("--root", args.root, "Read files under DIR as if it were /")
                   ->check(CLI::ExistingDirectory);
  add_root_tools_flag(cmd, args.root_tools, root);
  auto* host =
      cmd.add_option("--host", args.host_path, "Run on a snapshot FILE instead of this machine");
  auto* from = cmd.add_option("--from", args.from_path,
                              "Re-apply reserve and selection to a saved `detect --json` FILE");
  host->excludes(root)->excludes(from);
  from->excludes(root);
  cmd.add_option("--cache", args.cache_ttl,
                 "Reuse this machine's last detection if younger than TTL (300, 90s, 15m, 2h)")
      ->excludes(host)
      ->excludes(from);
  cmd.add_option("--reserve", args.reserve,
                 "Memory that must stay free on a device (4G, 512M, bytes; default 3584M, or "
                 "HWACCEL_RESERVE_BYTES)");
}

void add_select_flags(CLI::App& cmd, DevicesArgs& args) {
  add_devices_flags(cmd, args);
  cmd.add_flag("-v,--verbose", args.verbose, "Also print why this device was chosen (on stderr)");
  cmd.add_option("request", args.device, "A device: BACKEND:INDEX (cuda:1) or pci:ADDRESS");
  cmd.add_option("--device", args.device, "Same as the positional request");
  cmd.add_option("--backend", args.backend, "Only this backend (cuda, rocm, ...)");
  cmd.add_option("--require", args.require,
                 "gpu | npu | tpu | accelerator | mem>=SIZE, or several in one "
                 "(\"gpu mem>=40G\"), as the APIs take them (repeatable)");
}

namespace {

struct Prepared {
  int exit = kExitOk;
  Detection detection;
  Reserve reserve;
  std::string source;  // live, root(DIR), snapshot(FILE), fixture(FILE)
};

// Detection from the source the flags name, with the reserve applied.
Prepared prepare(const DevicesArgs& args) {
  Prepared p;
  std::unique_ptr<Host> host;
  if (!args.from_path.empty()) {
    auto text = read_text_file(args.from_path);
    if (!text) {
      std::cerr << "error: --from: " << text.error().message << "\n";
      p.exit = kExitBadInput;
      return p;
    }
    auto saved = detection_from_json_text(*text);
    if (!saved.detection) {
      std::cerr << "error: " << args.from_path << ": " << saved.error << "\n";
      p.exit = kExitBadInput;
      return p;
    }
    p.detection = std::move(*saved.detection);
    p.source = "fixture(" + args.from_path + ")";
  } else {
    auto only = parse_only(args.only);
    if (only.exit != kExitOk) {
      p.exit = only.exit;
      return p;
    }
    auto opened = open_host(args.host_path, args.root, args.timeout_s, args.root_tools);
    if (opened.exit != kExitOk) {
      p.exit = opened.exit;
      return p;
    }
    host = std::move(opened.host);
    p.source = opened.source;
    DetectOptions options;
    options.only = only.names;
    auto detected = detect_with_cache(*host, options, args.cache_ttl, args.root, args.root_tools,
                                      args.out.quiet);
    if (detected.exit != kExitOk) {
      p.exit = detected.exit;
      return p;
    }
    p.detection = std::move(detected.detection);
  }

  // The reserve comes from the flag, else the environment of the host we
  // detect on (a snapshot carries the variable it was recorded with; with
  // --from, this process's environment).
  std::optional<std::string> flag;
  if (!args.reserve.empty()) flag = args.reserve;
  std::optional<std::string> env = host ? host->env(kReserveEnv) : LiveHost().env(kReserveEnv);
  auto choice = choose_reserve(flag, env);
  if (!choice.reserve) {
    std::cerr << "error: " << choice.error << "\n";
    p.exit = kExitBadReserve;
    return p;
  }
  p.reserve = *choice.reserve;
  apply_reserve(p.detection, p.reserve);
  return p;
}

}  // namespace

int run_devices(const DevicesArgs& args) {
  Prepared p = prepare(args);
  if (p.exit != kExitOk) return p.exit;
  Selection s = select_default(p.detection);
  Choice choice{s.entry, s.reason, p.source};
  const Format format = output_format(args.out);
  if (format == Format::text)
    print_text(render_devices_text(p.detection, p.reserve, choice));
  else if (format == Format::json)
    std::cout << render_devices_json(p.detection, p.reserve, choice);
  else
    print_document(devices_to_json(p.detection, p.reserve, choice), format);
  return kExitOk;
}

int run_select(const DevicesArgs& args) {
  Request request;
  request.device = args.device;
  request.backend = args.backend;
  for (const auto& text : args.require) {  // the APIs' request grammar ("gpu mem>=40G")
    std::string error = add_request_text(request, text);
    if (!error.empty()) {
      std::cerr << "error: --require: " << error << "\n";
      return kExitUsage;
    }
  }
  Prepared p = prepare(args);
  if (p.exit != kExitOk) return p.exit;
  RequestResult r = resolve_request(p.detection, request, backend_names());
  Choice choice{r.entry, r.message, p.source};
  switch (r.outcome) {
    case RequestOutcome::selected:
      switch (output_format(args.out)) {
        case Format::text:
          std::cout << render_select_text(p.detection, choice);
          break;
        case Format::json:
          std::cout << render_select_json(p.detection, p.reserve, choice);
          break;
        case Format::yaml:
          print_document(nlohmann::json::parse(render_select_json(p.detection, p.reserve, choice)),
                         Format::yaml);
          break;
      }
      if (args.verbose) std::cerr << "reason: " << r.message << " (source: " << p.source << ")\n";
      return kExitOk;
    case RequestOutcome::bad_request:
      std::cerr << "error: " << r.message << "\n";
      return kExitUsage;
    case RequestOutcome::not_compiled:
      std::cerr << "error: " << r.message << "\n";
      return kExitNotCompiled;
    case RequestOutcome::not_ready:
      std::cerr << "error: " << r.message << "\n";
      return kExitNotReady;
    case RequestOutcome::unsatisfiable:
      std::cerr << "error: " << r.message << "\n";
      return kExitUnsatisfied;
  }
  return kExitInternal;
}

}  // namespace hwaccel::cli
