// What the Python module does, in plain C++ (no Python types): detect, select,
// plan and record, as the CLI's commands do them. Failures are thrown as
// Failure with the CLI's exit code, so that Python raises what a script that
// runs the CLI would see.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/registry/detection.h"

namespace hwaccel::python {

// `code` is the CLI's exit code for the same failure (cli/common/exit_codes.h).
struct Failure : std::runtime_error {
  Failure(int code, const std::string& message) : std::runtime_error(message), code(code) {}
  int code;
};

// Where to detect: a snapshot file, a --root tree, or this machine.
struct Source {
  std::optional<std::string> snapshot;
  std::optional<std::string> root;
  std::vector<std::string> only;    // empty: every backend
  std::optional<double> timeout_s;  // per tool; default 5 s
  // Under `root`, this machine's tools run on a tree that lacks them only with
  // this (the CLI's --root-tools; src/host/root_tools.h).
  bool root_tools = false;
};

struct Detected {
  Detection detection;
  std::optional<std::string> reserve_env;  // HWACCEL_RESERVE_BYTES of the host detected
  std::string source;                      // live, root(DIR), snapshot(FILE)
};

// `hwaccel detect` (with --host, --root, --root-tools, --only, --timeout; --record FILE when
// record_path is set).
// An existing record_path is replaced only with `force`.
Detected detect_source(const Source& source, const std::optional<std::string>& record_path = {},
                       bool redact = true, bool force = false);
// The hwaccel-detect/1 document, as `hwaccel detect --json` prints it.
std::string detect_json(const Detected& detected);

struct Selected {
  int entry = -1;           // in the detection with the reserve applied
  std::string reason;       // why this device
  std::string device_json;  // that device as in hwaccel-detect/1 (after the reserve)
  std::uint64_t reserve_bytes = 0;
  std::string reserve_source;
};
// `hwaccel select REQUEST [--reserve R]`; throws Failure with exit 2, 6, 7, 8 or 9.
Selected select_request(const Detected& detected, const std::string& request,
                        const std::optional<std::string>& reserve);

struct PlanArgs {
  std::string model;                 // built-in name, or path to a config.json
  std::optional<std::string> quant;  // default: the model's dtype
  std::string kv = "fp16";
  std::optional<std::string> runtime;            // as --runtime (default: assumed, as plan says)
  std::string flash_attn = "auto";               // as --flash-attn: on, off or auto
  std::optional<double> gpu_memory_utilization;  // as --gpu-memory-utilization
  int context = 4096;
  int batch = 1;
  int decode_batch = 32;
  std::optional<std::string> reserve;
  std::vector<std::string> on, add, remove;
};
struct Planned {
  std::string json;  // hwaccel-plan/1, as `hwaccel plan --json` prints it
  std::string text;  // the report `hwaccel plan` prints
  bool fits = false;
};
// `hwaccel plan`; throws Failure with exit 2, 4 or 6.
Planned plan_model(const Detected& detected, const PlanArgs& args);

}  // namespace hwaccel::python
