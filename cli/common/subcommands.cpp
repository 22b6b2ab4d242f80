#include "cli/common/subcommands.h"

#include <iostream>
#include <utility>

#include "cli/common/cli_docs.h"
#include "cli/common/exit_codes.h"

namespace hwaccel::cli {

std::vector<AddedSubcommand> add_subcommands(CLI::App& app, const std::vector<Subcommand>& table,
                                             int argc, char** argv) {
  const Subcommand* asked = nullptr;
  if (argc > 1)
    for (const auto& s : table)
      if (s.name == argv[1]) asked = &s;
  std::vector<AddedSubcommand> added;
  for (const auto& s : table)
    if (asked == nullptr || asked == &s) added.push_back(s.add(app));
  return added;
}

std::optional<int> parse_command_line(CLI::App& app, const std::string& program, int argc,
                                      char** argv) {
  if (int code = 0; handle_generators(app, program, argc, argv, code)) return code;
  // A first word that names no subcommand: CLI11 says only "A subcommand is
  // required", which hides the typo; say what was given and what there is.
  if (argc > 1 && argv[1][0] != '-' && argv[1][0] != '\0') {
    const std::string given = argv[1];
    std::string known;
    bool found = false;
    for (const CLI::App* s :
         std::as_const(app).get_subcommands([](const CLI::App*) { return true; })) {
      found = found || s->check_name(given);
      known += (known.empty() ? "" : ", ") + s->get_name();
    }
    if (!found) {
      std::cerr << "error: " << program << ": no command \"" << given
                << "\" (the commands: " << known << "; see " << program << " --help)\n";
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }
  return std::nullopt;
}

const AddedSubcommand* parsed_subcommand(const std::vector<AddedSubcommand>& added) {
  for (const auto& a : added)
    if (a.command->parsed()) return &a;
  return nullptr;
}

}  // namespace hwaccel::cli
