// hwaccel: what accelerators this machine has, and which are usable.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "src/report/schemas.h"

#include "cli/common/cli_docs.h"
#include "cli/common/cost_command.h"
#include "cli/common/detect_command.h"
#include "cli/common/devices_command.h"
#include "cli/common/exit_codes.h"
#include "cli/common/export_command.h"
#include "cli/common/guarded.h"
#include "cli/common/io_command.h"
#include "cli/common/plan_command.h"
#include "cli/common/train_command.h"

int main(int argc, char** argv) {
  using namespace hwaccel::cli;
  CLI::App app{"hwaccel: find every AI accelerator on this machine and say whether it is usable"};
  app.set_version_flag("--version", std::string("hwaccel ") + HWACCEL_VERSION);
  app.require_subcommand(1);

  DetectArgs detect_args;
  auto* detect =
      app.add_subcommand("detect", "Every backend a line (ready, or why not), then every device");
  add_detect_flags(*detect, detect_args);

  DevicesArgs devices_args;
  auto* devices = app.add_subcommand(
      "devices", "The detection block, the memory reserve and the device a program would get");
  add_devices_flags(*devices, devices_args);

  DevicesArgs select_args;
  auto* select = app.add_subcommand(
      "select", "The device for a request (default: the best ready accelerator, else the CPU)");
  add_select_flags(*select, select_args);

  PlanArgs plan_args;
  auto* plan =
      app.add_subcommand("plan", "What a model needs, whether it fits, how to split it, how fast");
  add_plan_flags(*plan, plan_args);
  TrainArgs train_args;
  auto* train =
      app.add_subcommand("train", "Memory per device for fine-tuning (full, LoRA, QLoRA, ...)");
  add_train_flags(*train, train_args);
  CostArgs cost_args;
  auto* cost = app.add_subcommand("cost", "The cheapest cloud instances a model fits on");
  add_cost_flags(*cost, cost_args);
  IoArgs io_args;
  auto* io = app.add_subcommand(
      "io", "How long reading a data set takes from this host's storage, and what that assumes");
  add_io_flags(*io, io_args);

  std::string schema_name;
  auto* schema = app.add_subcommand("schema", "Print the JSON Schema of an output document");
  schema
      ->add_option("name", schema_name,
                   "hwaccel-detect-1, hwaccel-devices-1, hwaccel-select-1 or hwaccel-summary-1")
      ->required();

  ExportArgs export_args;
  auto* exports = add_export_command(app, export_args);

  if (int code = 0; handle_generators(app, "hwaccel", argc, argv, code)) return code;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  return run_guarded([&]() -> int {
    if (detect->parsed()) return run_detect(detect_args);
    if (devices->parsed()) return run_devices(devices_args);
    if (select->parsed()) return run_select(select_args);
    if (plan->parsed()) return run_plan(plan_args);
    if (train->parsed()) return run_train(train_args);
    if (cost->parsed()) return run_cost(cost_args);
    if (io->parsed()) return run_io(io_args);
    if (exports->parsed()) return run_export(export_args);
    if (schema->parsed()) {
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
    return kExitUsage;
  });
}
