// The CLI conventions: --summary, --json/--format on every reporting command,
// one document on stdout, colour only on a terminal and never with NO_COLOR,
// --version, and one test per exit code, checked against docs/cli.md's table.
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "cli/common/exit_code_table.h"
#include "cli/common/exit_codes.h"
#include "cli/common/guarded.h"
#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

using nlohmann::json;
using namespace hwaccel::cli;

std::string fixture(const std::string& name) {
  return source_path("fixtures/hosts/" + name + ".yaml");
}

TEST(Conventions, SummaryTextSaysFamiliesBestMemoryAndWarnings) {
  auto r = run_command(bin("hwaccel") + " detect --summary --host " + fixture("dgx-h100"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("families: cuda 8/8 ready, rocm none (no-device), "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(", cpu 1/1 ready\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("best: cuda:0 NVIDIA H100 80GB HBM3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("accelerators: 8 physical ready"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("warnings: "), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(Conventions, SummaryJsonIsOneVersionedDocument) {
  auto r = run_command(bin("hwaccel") + " detect --summary --json --host " + fixture("gx10"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc = json::parse(r.out);  // throws on anything but exactly one document
  EXPECT_EQ(doc["schema"], "hwaccel-summary/1");
  EXPECT_EQ(doc["best"]["device"], "cuda:0");
  EXPECT_EQ(doc["accelerators_ready"], 1);
  // GB10: unified memory is accelerator memory but not counted twice in the total.
  EXPECT_EQ(doc["memory"]["total_bytes"], doc["memory"]["host_bytes"]);
  EXPECT_EQ(doc["memory"]["accelerator_bytes"], doc["memory"]["host_bytes"]);
}

TEST(Conventions, SummaryOfAMissingDriverSaysWhy) {
  auto r = run_command(bin("hwaccel") + " detect --summary --host " + fixture("nvidia-no-driver"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("best: cpu:0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no ready accelerator: cuda="), std::string::npos) << r.out;
}

TEST(Conventions, EveryReportingCommandSpeaksJsonAndYaml) {
  const std::string host = " --host " + fixture("dgx-h100");
  for (const std::string command : {"detect", "detect --summary", "devices", "select"}) {
    auto j = run_command(bin("hwaccel") + " " + command + " --json" + host);
    ASSERT_EQ(j.exit_code, 0) << command << ": " << j.err;
    json doc = json::parse(j.out);
    auto f = run_command(bin("hwaccel") + " " + command + " --format json" + host);
    EXPECT_EQ(f.out, j.out) << command;
    auto y = run_command(bin("hwaccel") + " " + command + " --format yaml" + host);
    ASSERT_EQ(y.exit_code, 0) << command << ": " << y.err;
    YAML::Node node = YAML::Load(y.out);
    EXPECT_EQ(node["schema"].as<std::string>(), doc["schema"].get<std::string>()) << command;
  }
  auto r = run_command(bin("hwsim") + " replay --format yaml " + fixture("gx10"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(YAML::Load(r.out)["schema"].as<std::string>(), "hwaccel-detect/1");
  auto bad = run_command(bin("hwaccel") + " detect --format xml" + host);
  EXPECT_EQ(bad.exit_code, kExitUsage);
  auto both = run_command(bin("hwaccel") + " detect --json --format yaml" + host);
  EXPECT_EQ(both.exit_code, kExitUsage);
}

// `script` gives the command a terminal; its output comes back with CRLF.
bool have_script() {
  return run_command("script --version").exit_code == 0;
}

TEST(Conventions, ColourOnlyOnATerminalAndNeverWithNoColor) {
  const std::string cmd = bin("hwaccel") + " detect --host " + fixture("nvidia-no-driver");
  auto piped = run_command("env -u NO_COLOR " + cmd);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out.find('\033'), std::string::npos) << "colour into a pipe";
  if (!have_script()) GTEST_SKIP() << "util-linux `script` is missing; cannot fake a terminal";
  auto tty = run_command("env -u NO_COLOR script -qec " + quote(cmd) + " /dev/null");
  ASSERT_EQ(tty.exit_code, 0) << tty.err;
  EXPECT_NE(tty.out.find("\033[32mready\033[0m"), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("\033[31munavailable\033[0m"), std::string::npos) << tty.out;
  auto no_color = run_command("env NO_COLOR=1 script -qec " + quote(cmd) + " /dev/null");
  ASSERT_EQ(no_color.exit_code, 0) << no_color.err;
  EXPECT_EQ(no_color.out.find('\033'), std::string::npos) << no_color.out;
}

TEST(Conventions, VersionAndQuiet) {
  for (const std::string program : {"hwaccel", "hwsim"}) {
    auto r = run_command(bin(program) + " --version");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, program + " " + HWACCEL_VERSION + "\n");
  }
  auto q = run_command(bin("hwaccel") + " detect -q --host " + fixture("cpu-only"));
  EXPECT_EQ(q.exit_code, 0) << q.err;
  EXPECT_TRUE(q.err.empty()) << q.err;
  auto v = run_command(bin("hwaccel") + " select -v --host " + fixture("dgx-h100"));
  EXPECT_EQ(v.out, "cuda:0 ordinal=0 uuid=GPU-168fbe87-2a83-b2f1-9874-64cbffc91be1\n");
  EXPECT_NE(v.err.find("reason: first ready cuda device"), std::string::npos) << v.err;
}

// One command per exit code; each must end with its code and, when it is an
// error, say on stderr what was wrong.
struct CodeCase {
  int code;
  std::string command;
  std::string stderr_has;
};

std::vector<CodeCase> code_cases(const std::string& dir) {
  const std::string h = bin("hwaccel"), s = bin("hwsim");
  write_text(dir + "/broken.yaml", "schema: hwaccel-snapshot/1\nfiles: [unclosed\n");
  write_text(dir + "/lacking.yaml",
             "schema: hwaccel-snapshot/1\nfacts: {os: linux, arch: x86_64, cpus: 1}\n");
  return {
      {kExitOk, h + " detect --host " + fixture("cpu-only"), ""},
      {kExitUsage, h + " detect --no-such-flag", "--no-such-flag"},
      {kExitUsage, h + " detect --only cudaa --host " + fixture("cpu-only"), "unknown backend"},
      {kExitReplayMiss, s + " replay --strict " + dir + "/lacking.yaml", "replay miss"},
      {kExitBadInput, h + " detect --host " + dir + "/broken.yaml", "broken.yaml"},
      {kExitCannotWrite, h + " detect --record " + dir + "/no/such/dir/x.yaml", "--record"},
      {kExitBadReserve, h + " devices --reserve lots --host " + fixture("cpu-only"), "lots"},
      // Only a build configured with a backend OFF can say so: hwaccel_without_vulkan
      // is this CLI built as with -DHWACCEL_BACKEND_VULKAN=OFF (tests/ecosystem.cmake).
      {kExitNotCompiled,
       bin("hwaccel_without_vulkan") + " select --backend vulkan --host " + fixture("cpu-only"),
       "this build has no vulkan backend"},
      // The full build has it: the same request is answered with why it is not ready.
      {kExitNotReady, h + " select --backend vulkan --host " + fixture("cpu-only"),
       "vulkan is not ready"},
      {kExitNotReady, h + " select cuda:0 --host " + fixture("nvidia-no-driver"), "not ready"},
      {kExitUnsatisfied, h + " select --require gpu --host " + fixture("cpu-only"), "available"},
      {kExitCheckFailed,
       "mkdir -p " + dir + "/check/cpu-only.expected && cp " + fixture("cpu-only") + " " + dir +
           "/check/ && echo wrong > " + dir + "/check/cpu-only.expected/detect.txt && " + s +
           " check --progress never " + dir + "/check",
       ""},
  };
}

std::string h_bin() {
  return bin("hwaccel");
}

TEST(ExitCodes, EachCodeHasACommandThatEndsWithIt) {
  std::string dir = make_temp_dir();
  std::set<int> covered;
  for (const auto& c : code_cases(dir)) {
    auto r = run_command(c.command);
    EXPECT_EQ(r.exit_code, c.code) << c.command << "\n" << r.err;
    if (!c.stderr_has.empty()) {
      EXPECT_NE(r.err.find(c.stderr_has), std::string::npos) << c.command << "\n" << r.err;
    }
    covered.insert(c.code);
  }
  covered.insert(kExitInternal);  // below: an exception escaping a command
  // A 405B-parameter model on a 16 GB CPU-only VM.
  auto too_big = run_command(h_bin() + " plan --params 405B --host " + fixture("cpu-only"));
  EXPECT_EQ(too_big.exit_code, kExitDoesNotFit) << too_big.err;
  covered.insert(kExitDoesNotFit);
  for (const auto& row : cli::exit_code_table())
    EXPECT_TRUE(covered.count(row.code)) << "exit code " << row.code << " has no test";
}

TEST(ExitCodes, AnEscapedExceptionIsAnInternalErrorThatSaysWhatToDo) {
  ::testing::internal::CaptureStderr();
  int code = cli::run_guarded([]() -> int { throw std::runtime_error("boom"); });
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, kExitInternal);
  EXPECT_NE(err.find("internal error: boom"), std::string::npos) << err;
  EXPECT_NE(err.find("please report it"), std::string::npos) << err;
}

TEST(ExitCodes, DocsCliMdHasOneTableWithExactlyTheseCodes) {
  auto doc = slurp(source_path("docs/cli.md"));
  ASSERT_TRUE(doc);
  auto at = doc->find("## Exit codes");
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(doc->find("## Exit codes", at + 1), std::string::npos) << "one table only";
  std::regex row(R"(\n\| (\d+) \| ([^\n]*) \|)");
  std::set<int> documented;
  std::string section = doc->substr(at, doc->find("\n## ", at + 1) - at);
  for (auto it = std::sregex_iterator(section.begin(), section.end(), row);
       it != std::sregex_iterator(); ++it)
    documented.insert(std::stoi((*it)[1]));
  std::set<int> defined;
  for (const auto& r : cli::exit_code_table()) defined.insert(r.code);
  EXPECT_EQ(documented, defined);
}

}  // namespace
}  // namespace hwaccel::testing
