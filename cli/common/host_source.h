// What both `detect` and `devices`/`select` need before detecting: the backends
// named by --only, and the Host the flags name (a snapshot, a --root tree, or
// this machine). Errors are printed here and returned as exit codes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/host/host.h"
#include "src/host/snapshot_host.h"

namespace hwaccel::cli {

// "cuda,cpu" -> {"cuda", "cpu"}; an unknown name is printed and gives kExitUsage.
struct BackendList {
  int exit = 0;
  std::vector<std::string> names;
};
BackendList parse_only(const std::string& text);

struct OpenedHost {
  int exit = 0;  // kExitOk, or kExitBadInput for an unusable snapshot
  std::unique_ptr<Host> host;
  SnapshotHost* snapshot = nullptr;  // set when the host is a snapshot (for its misses)
  std::string source;                // live, root(DIR), snapshot(FILE)
};
// Under --root, tools run only where the tree has them unless `root_tools`.
OpenedHost open_host(const std::string& snapshot_path, const std::string& root, double timeout_s,
                     bool root_tools = false);

}  // namespace hwaccel::cli
