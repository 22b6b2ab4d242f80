// hwaccel: what accelerators this machine has, and which are usable.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "src/report/schemas.h"

#include "cli/common/detect_command.h"
#include "cli/common/devices_command.h"
#include "cli/common/exit_codes.h"

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

  std::string schema_name;
  auto* schema = app.add_subcommand("schema", "Print the JSON Schema of an output document");
  schema->add_option("name", schema_name, "hwaccel-detect-1, hwaccel-devices-1 or hwaccel-select-1")
      ->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  try {
    if (detect->parsed()) return run_detect(detect_args);
    if (devices->parsed()) return run_devices(devices_args);
    if (select->parsed()) return run_select(select_args);
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
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return kExitInternal;
  }
  return kExitUsage;
}
