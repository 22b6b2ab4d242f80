// The shared body of `hwaccel detect` and `hwsim replay`: choose a Host, run the
// detection, render it, and (when asked) record the host.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/common/output_format.h"
#include "src/registry/detection.h"

namespace hwaccel::cli {

struct DetectArgs {
  OutputArgs out;           // --json, --format, -q
  bool summary = false;     // --summary: counts, best device, memory, warnings
  std::string only;         // comma-separated backend names
  double timeout_s = 5.0;   // per tool run
  std::string record_path;  // --record FILE
  bool no_redact = false;
  bool timings = false;     // --timings
  bool force = false;       // --record may replace an existing file
  std::string root;         // --root DIR
  bool root_tools = false;  // --root-tools: under --root, run this machine's tools
  std::string host_path;    // --host FILE (a snapshot)
  bool strict = false;      // replay misses are errors
  std::string cache_ttl;    // --cache TTL: reuse a detection younger than TTL
  bool verbose = false;     // -v: per-device details and topology in the text report
};

// Adds the flags of `hwaccel detect` to `command`.
void add_detect_flags(CLI::App& command, DetectArgs& args);
int run_detect(const DetectArgs& args);

// Prints a detection as the flags ask (text, JSON, YAML; full or --summary).
void print_detection(const Detection& detection, const DetectArgs& args);

}  // namespace hwaccel::cli
