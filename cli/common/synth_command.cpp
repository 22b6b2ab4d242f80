#include "cli/common/synth_command.h"

#include <iostream>

#include "cli/common/exit_codes.h"
#include "cli/common/output_file.h"
#include "sim/presets.h"
#include "sim/spec_reader.h"
#include "sim/synth.h"
#include "src/host/text_file.h"
#include "src/snapshot/snapshot_codec.h"

namespace hwaccel::cli {

CLI::App* add_synth_command(CLI::App& app, SynthArgs& args) {
  auto* cmd = app.add_subcommand(
      "synth", "Synthesise a host snapshot from a spec FILE or a --preset (docs/hwsim-spec.md)");
  auto* file = cmd->add_option("spec", args.spec_path, "The host spec (hwsim-spec/1 YAML)");
  auto* preset = cmd->add_option("--preset", args.preset, "A named spec (--list-presets)");
  cmd->add_option("-o,--output", args.output, "Where to write the snapshot (default: stdout)");
  cmd->add_flag("--force", args.force, "Replace the output file if it exists");
  cmd->add_flag("--list-presets", args.list, "Print the preset names and exit");
  file->excludes(preset);
  return cmd;
}

std::optional<sim::HostSpec> load_spec(const std::string& path, const std::string& preset,
                                       int& exit_code) {
  std::string text, name;
  if (!preset.empty()) {
    auto spec = sim::preset_spec(preset);
    if (!spec) {
      std::string all;
      for (const auto& n : sim::preset_names()) all += (all.empty() ? "" : ", ") + n;
      std::cerr << "error: --preset: unknown preset \"" << preset << "\" (known: " << all << ")\n";
      exit_code = kExitUsage;
      return std::nullopt;
    }
    text = *spec;
    name = "preset:" + preset;
  } else {
    auto read = read_text_file(path, sim::kMaxSpecBytes);
    if (!read) {
      std::cerr << "error: " << path << ": " << read.error().message << "\n";
      exit_code = kExitBadInput;
      return std::nullopt;
    }
    text = *read;
    name = path;
  }
  sim::HostSpec spec;
  if (auto error = sim::parse_spec(text, name, spec)) {
    std::cerr << "error: " << error->to_string() << "\n";
    exit_code = kExitBadInput;
    return std::nullopt;
  }
  return spec;
}

int run_synth(const SynthArgs& args) {
  if (args.list) {
    for (const auto& n : sim::preset_names()) std::cout << n << "\n";
    return kExitOk;
  }
  if (args.spec_path.empty() && args.preset.empty()) {
    std::cerr << "error: synth needs a spec FILE or --preset NAME (--list-presets lists them)\n";
    return kExitUsage;
  }
  int exit_code = kExitOk;
  auto spec = load_spec(args.spec_path, args.preset, exit_code);
  if (!spec) return exit_code;
  const std::string yaml = write_snapshot(sim::synthesize(*spec));
  if (args.output.empty()) {
    std::cout << yaml;
    return kExitOk;
  }
  if (auto why = write_file_atomically(args.output, yaml,
                                       args.force ? ExistingFile::replace : ExistingFile::keep);
      !why.empty()) {
    std::cerr << "error: " << why << "\n";
    return kExitCannotWrite;
  }
  return kExitOk;
}

}  // namespace hwaccel::cli
