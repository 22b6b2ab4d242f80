// hwaccel: what accelerators this machine has, and which are usable.
#include <CLI/CLI.hpp>
#include <exception>
#include <functional>
#include <iostream>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "src/report/schemas.h"
#include "src/vocabulary/sanitizer.h"

#include "cli/common/cli_docs.h"
#include "cli/common/cost_command.h"
#include "cli/common/detect_command.h"
#include "cli/common/devices_command.h"
#include "cli/common/exit_codes.h"
#include "cli/common/export_command.h"
#include "cli/common/guarded.h"
#include "cli/common/io_command.h"
#include "cli/common/plan_command.h"
#include "cli/common/subcommands.h"
#include "cli/common/train_command.h"

namespace {

using namespace hwaccel::cli;

using Added = AddedSubcommand;

// Adds subcommand NAME whose flags go to an Args set by `add_flags`, run by
// `run`.
template <typename Args, typename AddFlags, typename Run>
Added simple(CLI::App& app, const char* name, const char* description, AddFlags add_flags,
             Run run) {
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(name, description);
  add_flags(*command, *args);
  return {command, [args, run] { return run(*args); }};
}

int run_schema(const std::string& schema_name) {
  // Accept the document's own name too: hwaccel-detect/1.
  std::string name = schema_name;
  for (char& c : name)
    if (c == '/') c = '-';
  auto text = hwaccel::schema_text(name);
  if (text.empty()) {
    std::cerr << "error: no schema \"" << schema_name << "\"; known:";
    for (const auto& n : hwaccel::schema_names()) std::cerr << " " << n;
    std::cerr << "\n";
    return kExitUsage;
  }
  std::cout << text;
  return kExitOk;
}

std::vector<Subcommand> commands() {
  return {
      {"detect",
       [](CLI::App& app) {
         return simple<DetectArgs>(app, "detect",
                                   "Every backend a line (ready, or why not), then every device",
                                   add_detect_flags, run_detect);
       }},
      {"devices",
       [](CLI::App& app) {
         return simple<DevicesArgs>(app, "devices",
                                    "The detection block, the memory reserve "
                                    "and the device a program would get",
                                    add_devices_flags, run_devices);
       }},
      {"select",
       [](CLI::App& app) {
         return simple<DevicesArgs>(app, "select",
                                    "The device for a request (default: the "
                                    "best ready accelerator, else the CPU)",
                                    add_select_flags, run_select);
       }},
      {"plan",
       [](CLI::App& app) {
         return simple<PlanArgs>(app, "plan",
                                 "What a model needs, whether it fits, how to split it, how fast",
                                 add_plan_flags, run_plan);
       }},
      {"train",
       [](CLI::App& app) {
         return simple<TrainArgs>(app, "train",
                                  "Memory per device for fine-tuning (full, LoRA, QLoRA, ...)",
                                  add_train_flags, run_train);
       }},
      {"cost",
       [](CLI::App& app) {
         return simple<CostArgs>(app, "cost", "The cheapest cloud instances a model fits on",
                                 add_cost_flags, run_cost);
       }},
      {"io",
       [](CLI::App& app) {
         return simple<IoArgs>(app, "io",
                               "How long reading a data set takes from this "
                               "host's storage, and what that assumes",
                               add_io_flags, run_io);
       }},
      {"schema",
       [](CLI::App& app) {
         auto schema_name = std::make_shared<std::string>();
         CLI::App* command =
             app.add_subcommand("schema", "Print the JSON Schema of an output document");
         command
             ->add_option("name", *schema_name,
                          "hwaccel-detect-1, hwaccel-devices-1, hwaccel-select-1 or "
                          "hwaccel-summary-1")
             ->required();
         return Added{command, [schema_name] { return run_schema(*schema_name); }};
       }},
      {"export",
       [](CLI::App& app) {
         auto args = std::make_shared<ExportArgs>();
         CLI::App* command = add_export_command(app, *args);
         return Added{command, [args] { return run_export(*args); }};
       }},
  };
}

}  // namespace

int main(int argc, char** argv) {
  // Left to the exit once the command has run (free_at_exit below): tearing
  // down the options one by one was 2 % of `detect --host dgx-h100.yaml`
  // (issue 37, perf record).
  auto owned_app = std::make_unique<CLI::App>(
      "hwaccel: find every AI accelerator on this machine and say "
      "whether it is usable");
  CLI::App& app = *owned_app;
  app.set_version_flag("--version", std::string("hwaccel ") + HWACCEL_VERSION);
  app.require_subcommand(1);

  // Only the subcommand asked for is built (subcommands.h).
  const auto added = add_subcommands(app, commands(), argc, argv);
  if (auto done = parse_command_line(app, "hwaccel", argc, argv)) return *done;
  const AddedSubcommand* parsed = parsed_subcommand(added);
  const int code = run_guarded([&]() -> int { return parsed ? parsed->run() : kExitUsage; });
  hwaccel::free_at_exit(std::move(owned_app));
  return code;
}
