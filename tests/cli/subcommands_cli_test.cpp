// Both tools build a subcommand's options only when the first argument names it
// (cli/common/subcommands.h): every subcommand still answers its own --help,
// the top-level --help lists them all in order, and anything else is a usage
// error that names what was given.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/common/exit_codes.h"
#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

std::vector<std::string> listed(const std::string& help) {
  std::vector<std::string> out;
  auto at = help.find("\nSubcommands:\n");
  if (at == std::string::npos) return out;
  std::istringstream lines(help.substr(at + 14));
  std::string line, name;
  while (std::getline(lines, line) && line.rfind("  ", 0) == 0) {
    std::istringstream(line) >> name;
    out.push_back(name);
  }
  return out;
}

void expect_table(const std::string& program, const std::vector<std::string>& names) {
  auto help = run_command(bin(program) + " --help");
  ASSERT_EQ(help.exit_code, 0) << help.err;
  EXPECT_EQ(listed(help.out), names) << help.out;
  for (const auto& name : names) {
    auto r = run_command(bin(program) + " " + name + " --help");
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_NE(r.out.find(program + " " + name), std::string::npos) << name << ": " << r.out;
    EXPECT_NE(r.out.find("--help"), std::string::npos) << name << ": " << r.out;
  }
  auto typo = run_command(bin(program) + " no-such-command");
  EXPECT_EQ(typo.exit_code, cli::kExitUsage);
  EXPECT_NE(typo.err.find("no-such-command"), std::string::npos) << typo.err;
  auto none = run_command(bin(program));
  EXPECT_EQ(none.exit_code, cli::kExitUsage) << none.out;
}

TEST(Subcommands, HwaccelBuildsTheOneNamedAndListsThemAll) {
  expect_table("hwaccel",
               {"detect", "devices", "select", "plan", "train", "cost", "io", "schema", "export"});
  // A subcommand's flags reach it when only it is built.
  auto r = run_command(bin("hwaccel") + " detect --summary --host " +
                       source_path("fixtures/hosts/gx10.yaml"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("families: "), std::string::npos) << r.out;
  // Another subcommand's flag is not this one's.
  auto wrong = run_command(bin("hwaccel") + " schema --host x hwaccel-detect-1");
  EXPECT_EQ(wrong.exit_code, cli::kExitUsage) << wrong.out;
}

TEST(Subcommands, HwsimBuildsTheOneNamedAndListsThemAll) {
  expect_table("hwsim", {"replay", "mutate", "synth", "check", "fleet", "import", "diff",
                         "materialize", "run"});
  auto r =
      run_command(bin("hwsim") + " replay --summary " + source_path("fixtures/hosts/gx10.yaml"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("families: "), std::string::npos) << r.out;
  // What the tool shims run is answered without a subcommand table, and unlisted.
  auto help = run_command(bin("hwsim") + " --help");
  EXPECT_EQ(help.out.find("emulate"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace hwaccel::testing
