#include "cli/common/host_source.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <sstream>

#include "cli/common/exit_codes.h"
#include "src/host/live_host.h"
#include "src/registry/detection.h"

namespace hwaccel::cli {

BackendList parse_only(const std::string& text) {
  BackendList list;
  std::stringstream in(text);
  std::string name;
  const auto known = reported_backend_names();
  while (std::getline(in, name, ',')) {
    if (name.empty()) continue;
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string all;
      for (const auto& k : known) all += (all.empty() ? "" : ", ") + k;
      std::cerr << "error: --only: unknown backend \"" << name << "\" (this build has: " << all
                << ")\n";
      list.exit = kExitUsage;
      return list;
    }
    list.names.push_back(name);
  }
  return list;
}

OpenedHost open_host(const std::string& snapshot_path, const std::string& root, double timeout_s,
                     bool root_tools) {
  OpenedHost opened;
  if (!snapshot_path.empty()) {
    auto loaded = load_snapshot_file(snapshot_path);
    if (loaded.error) {
      std::cerr << "error: " << loaded.error->to_string() << "\n";
      opened.exit = kExitBadInput;
      return opened;
    }
    auto snapshot = std::make_unique<SnapshotHost>(std::move(*loaded.snapshot));
    opened.snapshot = snapshot.get();
    opened.host = std::move(snapshot);
    opened.source = "snapshot(" + snapshot_path + ")";
    return opened;
  }
  LiveHostOptions live;
  live.root = root;
  live.root_tools = root_tools;
  // --timeout is checked (1 ms to a day); clamped here as well, since a cast
  // of nan or 1e300 to an integer is undefined behaviour.
  const double ms = std::isfinite(timeout_s) ? std::clamp(timeout_s * 1000, 1.0, 86400e3) : 5000;
  live.default_timeout = std::chrono::milliseconds(static_cast<long long>(ms));
  opened.host = std::make_unique<LiveHost>(live);
  opened.source = root.empty() ? "live" : "root(" + root + ")";
  return opened;
}

}  // namespace hwaccel::cli
