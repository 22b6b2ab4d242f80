// The detection pipeline: runs every backend's probe concurrently on one Host
// and gathers backend lines, entries and warnings in a fixed order.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/host/host.h"
#include "src/model/entry.h"
#include "src/model/warning.h"
#include "src/probe/probe.h"
#include "src/system/system_info.h"

namespace hwaccel {

class MemoHost;

struct HostSummary {
  Facts facts;
  std::string discovered_at;  // empty when the host has no clock (hand-written snapshot)
};

// Wall time of one backend's probe, for --timings. Not part of any report
// unless asked for: it differs from run to run.
struct ProbeTiming {
  std::string backend;
  double milliseconds = 0;
};

struct Detection {
  HostSummary host;
  std::vector<BackendStatus> backends;  // in backend order
  std::vector<Entry> entries;           // backend order, then index
  std::vector<Warning> warnings;        // backend order, then as reported
  std::vector<Link> links;              // sorted
  SystemInfo system;                    // ports, storage, environment (its warnings are in
                                        // `warnings` too, after the backends')
  std::vector<ProbeTiming> timings;     // backend order
  double total_milliseconds = 0;        // the whole detect() call
};

// Every backend this build has, in the order they are reported.
std::vector<std::unique_ptr<Probe>> all_probes();
// The backends this build runs (without those left out by -DHWACCEL_BACKEND_X=OFF).
std::vector<std::string> backend_names();
// Every backend with a probe, left out or not: each has a line in a report.
std::vector<std::string> reported_backend_names();

struct DetectOptions {
  std::vector<std::string> only;  // empty: every backend
  // Tests only: the backends to treat as left out of the build (default: this
  // build's, see build_backends.h).
  std::optional<std::vector<std::string>> left_out;
  // The memo of `host` to read through (it must wrap that host), so that a
  // command may keep it to its exit instead of freeing its thousand answers
  // one by one (4 % of `detect --host dgx-h100.yaml`, issue 37). Null: the
  // detection makes its own and frees it. Unused where the host is a snapshot,
  // which the detection asks directly.
  MemoHost* memo = nullptr;
};

// Runs the probes (concurrently) and merges their results deterministically.
// Unknown names in `only` are the caller's to reject (see backend_names()).
Detection detect(Host& host, const DetectOptions& options = {});

}  // namespace hwaccel
