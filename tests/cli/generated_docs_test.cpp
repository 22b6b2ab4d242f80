// Man pages and completion scripts are generated from the CLI definitions:
// every subcommand and flag appears, groff reads the pages cleanly, and bash
// completes subcommands, flags and flag values with the generated script.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

std::string generate(const std::string& program, const std::string& what) {
  auto r = run_command(bin(program) + " " + what);
  EXPECT_EQ(r.exit_code, 0) << what << ": " << r.err;
  return r.out;
}

// The subcommands `PROGRAM [WORDS] --help` lists, in order: what the CLI
// defines now, so these tests follow the commands as they are added.
std::vector<std::string> listed_subcommands(const std::string& program, const std::string& words) {
  std::string help = generate(program, words + " --help");
  std::vector<std::string> out;
  auto at = help.find("\nSubcommands:\n");
  if (at == std::string::npos) return out;
  std::istringstream lines(help.substr(at + 14));
  std::string line;
  while (std::getline(lines, line) && line.rfind("  ", 0) == 0) {
    std::istringstream words_of(line);
    std::string name;
    words_of >> name;
    out.push_back(name);
  }
  return out;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

TEST(GeneratedDocs, HelpListsTheCommandsOfThisBuild) {
  // The lists the tests below compare against: if parsing --help broke, they
  // would compare against nothing.
  auto commands = listed_subcommands("hwaccel", "");
  for (const char* c :
       {"detect", "devices", "select", "plan", "train", "cost", "io", "schema", "export"})
    EXPECT_NE(std::find(commands.begin(), commands.end(), c), commands.end()) << c;
  EXPECT_EQ(listed_subcommands("hwaccel", "export"),
            (std::vector<std::string>{"nfd", "slurm", "prometheus"}));
  EXPECT_GE(listed_subcommands("hwsim", "").size(), 5u);
}

TEST(GeneratedDocs, ManPagesNameEveryCommandAndFlag) {
  std::string man = generate("hwaccel", "--generate-man");
  for (const char* s : {".TH HWACCEL 1", "\\-\\-summary", "\\-\\-format", "\\-\\-cache",
                        "\\-\\-reserve", "\\-\\-part", ".SH EXIT STATUS", "NO_COLOR"})
    EXPECT_NE(man.find(s), std::string::npos) << s;
  for (const auto& c : listed_subcommands("hwaccel", ""))
    EXPECT_NE(man.find("hwaccel " + c), std::string::npos) << c;
  for (const auto& c : listed_subcommands("hwaccel", "export"))
    EXPECT_NE(man.find("hwaccel export " + c), std::string::npos) << c;
  std::string sim = generate("hwsim", "--generate-man");
  EXPECT_NE(sim.find(".TH HWSIM 1"), std::string::npos);
  for (const auto& c : listed_subcommands("hwsim", ""))
    EXPECT_NE(sim.find("hwsim " + c), std::string::npos) << c;
  EXPECT_EQ(generate("hwaccel", "--generate-man"), man) << "deterministic";

  if (run_command("groff --version").exit_code != 0) GTEST_SKIP() << "groff is not installed";
  std::string dir = make_temp_dir();
  for (const auto& [name, text] : {std::pair{"hwaccel.1", man}, {"hwsim.1", sim}}) {
    write_text(dir + "/" + name, text);
    auto r = run_command("groff -man -Tutf8 -ww -z " + dir + "/" + name);
    EXPECT_EQ(r.exit_code, 0) << name;
    EXPECT_TRUE(r.err.empty()) << name << ": " << r.err;
  }
}

// Runs the generated bash completion for a command line; returns COMPREPLY.
std::string complete(const std::string& script, const std::string& words, int cword) {
  std::string dir = make_temp_dir();
  write_text(dir + "/completion.bash", script);
  std::string cmd = "bash -c " + quote("source " + dir + "/completion.bash; COMP_WORDS=(" + words +
                                       "); COMP_CWORD=" + std::to_string(cword) +
                                       "; _hwaccel; echo \"${COMPREPLY[*]}\"");
  auto r = run_command(cmd);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST(GeneratedDocs, BashCompletesCommandsFlagsAndValues) {
  std::string script = generate("hwaccel", "--generate-completion bash");
  std::string file = make_temp_dir() + "/hwaccel.bash";
  write_text(file, script);
  auto syntax = run_command("bash -n " + file);
  ASSERT_EQ(syntax.exit_code, 0) << syntax.err;
  EXPECT_EQ(
      complete(script, "hwaccel ''", 1).rfind(joined(listed_subcommands("hwaccel", "")) + " ", 0),
      0u)
      << "the commands first, in the order --help lists them";
  EXPECT_EQ(complete(script, "hwaccel export ''", 2),
            joined(listed_subcommands("hwaccel", "export")) + " -h --help\n");
  EXPECT_NE(complete(script, "hwaccel detect --su", 2).find("--summary"), std::string::npos);
  EXPECT_EQ(complete(script, "hwaccel detect --format ''", 3), "text json yaml\n");
  EXPECT_EQ(complete(script, "hwaccel export slurm --part ''", 4), "all gres node\n");
  EXPECT_NE(complete(script, "hwaccel detect --only ''", 3).find("cuda"), std::string::npos);
  EXPECT_EQ(complete(script, "hwaccel devices --reserve ''", 3), "\n") << "a size: no file names";
}

TEST(GeneratedDocs, ZshCompletionDefinesAFunctionPerCommand) {
  std::string script = generate("hwaccel", "--generate-completion zsh");
  EXPECT_EQ(script.rfind("#compdef hwaccel\n", 0), 0u);
  for (const char* f : {"_hwaccel()", "_hwaccel_detect()", "_hwaccel_export()",
                        "_hwaccel_export_nfd()", "(text json yaml)"})
    EXPECT_NE(script.find(f), std::string::npos) << f;
  if (run_command("zsh --version").exit_code == 0) {
    std::string file = make_temp_dir() + "/_hwaccel";
    write_text(file, script);
    auto r = run_command("zsh -n " + file);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  auto bad = run_command(bin("hwaccel") + " --generate-completion fish");
  EXPECT_EQ(bad.exit_code, 2);
}

}  // namespace
}  // namespace hwaccel::testing
