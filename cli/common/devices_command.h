// `hwaccel devices` (the block with the reserve and the selection) and
// `hwaccel select [REQUEST]` (the choice alone, with exit codes programs act on).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/common/output_format.h"

namespace hwaccel::cli {

struct DevicesArgs {
  OutputArgs out;        // --json, --format, -q
  bool verbose = false;  // select -v: also print the reason for the choice on stderr
  std::string only;
  double timeout_s = 5.0;
  std::string root;
  bool root_tools = false;  // --root-tools: under --root, run this machine's tools
  std::string host_path;  // --host snapshot
  std::string from_path;  // --from saved detect/devices JSON
  std::string cache_ttl;  // --cache TTL
  std::string reserve;    // --reserve SIZE (empty: env or default)
  bool reserve_given = false;
  // select only
  std::string device;  // positional: cuda:1, pci:0000:3b:00.0
  std::string backend;
  std::vector<std::string> require;
};

void add_devices_flags(CLI::App& command, DevicesArgs& args);
void add_select_flags(CLI::App& command, DevicesArgs& args);
int run_devices(const DevicesArgs& args);
int run_select(const DevicesArgs& args);

}  // namespace hwaccel::cli
