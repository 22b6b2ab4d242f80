#include "cli/common/io_command.h"

#include <iostream>

#include "cli/common/exit_codes.h"
#include "cli/common/host_source.h"
#include "cli/common/number_options.h"
#include "cli/common/root_tools_flag.h"
#include "src/report/system_json.h"
#include "src/report/system_text.h"
#include "src/system/io_estimate.h"
#include "src/system/system_scan.h"

namespace hwaccel::cli {

void add_io_flags(CLI::App& cmd, IoArgs& args) {
  cmd.add_option("--dataset", args.dataset,
                 "Size of the data set: 100G (10^9 bytes), 1.5TiB (2^40), 500MB, ...")
      ->required();
  cmd.add_flag("--json", args.json, "Print the estimate as JSON");
  auto* root = cmd.add_option("--root", args.root, "Read files under DIR as if it were /")
                   ->check(CLI::ExistingDirectory);
  add_root_tools_flag(cmd, args.root_tools, root);
  auto* host =
      cmd.add_option("--host", args.host_path, "Run on a snapshot FILE instead of this machine");
  cmd.add_option("--timeout", args.timeout_s, "Seconds each tool may run (default 5)")
      ->check(timeout_seconds());
  host->excludes(root);
}

int run_io(const IoArgs& args) {
  auto bytes = parse_data_size(args.dataset);
  if (!bytes) {
    std::cerr << "error: --dataset: \"" << args.dataset
              << "\" is not a size; expected a number with an optional unit such as 100G, "
                 "500MB, 1.5TiB\n";
    return kExitUsage;
  }
  auto opened = open_host(args.host_path, args.root, args.timeout_s, args.root_tools);
  if (opened.exit != kExitOk) return opened.exit;
  SystemInfo system = scan_system(*opened.host);
  IngestEstimate estimate = estimate_ingest(system.storage, *bytes);
  if (args.json) {
    nlohmann::json doc = ingest_json(estimate);
    doc["schema"] = "hwaccel-io/1";
    doc["storage"] = system_json(system)["storage"];
    nlohmann::json warnings = nlohmann::json::array();
    for (const auto& w : system.warnings)
      warnings.push_back({{"backend", w.backend}, {"message", w.message}});
    doc["warnings"] = warnings;
    std::cout << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << render_ingest_text(estimate, system);
    for (const auto& w : system.warnings)
      std::cout << "warning: " << w.backend << ": " << w.message << "\n";
  }
  return kExitOk;
}

}  // namespace hwaccel::cli
