// ProbeGate and HeadStartHost: a probe stopped at its first tool has that tool
// started on the calling thread, and its re-run waits for the same process
// instead of starting the tool a second time.
#include "src/registry/probe_gate.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "src/host/live_host.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

class CountingTools {
 public:
  CountingTools() {
    std::string pattern = (fs::temp_directory_path() / "hwaccel-gate-XXXXXX").string();
    if (::mkdtemp(pattern.data()) != nullptr) dir_ = pattern;
  }
  ~CountingTools() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  // A tool that notes each start of it in the log, then prints `out`.
  std::vector<std::string> tool(const std::string& out) const {
    return {"/bin/sh", "-c", "echo \"$1\" >> \"$0\"; echo \"$1\"", (dir_ / "log").string(), out};
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // Every start so far, one line each.
  std::string log() const {
    std::ifstream in(dir_ / "log");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

 private:
  fs::path dir_;
};

TEST(ProbeGate, TheFirstToolStartsAtTheStopAndTheReRunWaitsForIt) {
  CountingTools tools;
  LiveHost machine;
  ProbeGate gate(machine);
  EXPECT_THROW(gate.run(tools.tool("a")), ProbeWantsATool);
  EXPECT_TRUE(gate.wanted_a_tool());
  auto started = gate.take_started();
  ASSERT_EQ(started.size(), 1u);

  HeadStartHost rerun(machine, std::move(started));
  ToolRun run = rerun.run(tools.tool("a"));
  ASSERT_TRUE(run.ok()) << run.err;
  EXPECT_EQ(run.out, "a\n");
  EXPECT_EQ(tools.log(), "a\n") << "the tool ran twice";
  // Asked once more, it is a new run.
  EXPECT_EQ(rerun.run(tools.tool("a")).out, "a\n");
  EXPECT_EQ(tools.log(), "a\na\n");
}

TEST(ProbeGate, EveryRunOfARunManyStartsAndIsWaitedForOnce) {
  CountingTools tools;
  LiveHost machine;
  ProbeGate gate(machine);
  const std::vector<std::string> missing = {"hwaccel-no-such-tool-anywhere"};
  EXPECT_THROW(gate.run_many({tools.tool("a"), missing, tools.tool("b")}), ProbeWantsATool);
  auto started = gate.take_started();
  EXPECT_EQ(started.size(), 2u);  // the missing tool needs no process

  HeadStartHost rerun(machine, std::move(started));
  auto runs = rerun.run_many({tools.tool("a"), missing, tools.tool("b"), tools.tool("c")});
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0].out, "a\n");
  EXPECT_EQ(runs[1].outcome, ToolOutcome::not_found);
  EXPECT_EQ(runs[2].out, "b\n");
  EXPECT_EQ(runs[3].out, "c\n");
  const std::string log = tools.log();
  EXPECT_EQ(log.size(), 6u) << log;  // a, b, c: once each, in whatever order they ended
  for (const char* line : {"a\n", "b\n", "c\n"}) EXPECT_NE(log.find(line), std::string::npos);
}

TEST(ProbeGate, AToolOnNoFolderOfPathIsAnsweredWithoutAStop) {
  LiveHost machine;
  ProbeGate gate(machine);
  ToolRun run = gate.run({"hwaccel-no-such-tool-anywhere", "--version"});
  EXPECT_EQ(run.outcome, ToolOutcome::not_found);
  EXPECT_FALSE(gate.wanted_a_tool()) << "a probe with no tool to wait for needs no thread";
  EXPECT_TRUE(gate.take_started().empty());
}

TEST(ProbeGate, AHostThatAnswersOnlyWhenAskedIsAskedByTheReRun) {
  testing::FakeHost machine;
  machine.tools[{"nvidia-smi", "-L"}].out = "GPU 0\n";
  ProbeGate gate(machine);
  EXPECT_THROW(gate.run({"nvidia-smi", "-L"}), ProbeWantsATool);
  EXPECT_TRUE(gate.take_started().empty());
  EXPECT_TRUE(machine.runs.empty());

  HeadStartHost rerun(machine, {});
  EXPECT_EQ(rerun.run({"nvidia-smi", "-L"}).out, "GPU 0\n");
  EXPECT_EQ(rerun.run_many({{"nvidia-smi", "-L"}}).at(0).out, "GPU 0\n");
  EXPECT_EQ(machine.runs.size(), 2u);
}

TEST(ProbeGate, AStartedRunTheReRunNeverAsksForIsStopped) {
  CountingTools tools;
  LiveHost machine;
  ProbeGate gate(machine);
  const std::string pid_file = tools.path("pid");
  EXPECT_THROW(
      gate.run({"/bin/sh", "-c", "echo $$ > \"$0.tmp\"; mv \"$0.tmp\" \"$0\"; sleep 30", pid_file}),
      ProbeWantsATool);
  auto started = gate.take_started();
  ASSERT_EQ(started.size(), 1u);
  for (int i = 0; i < 500 && !fs::exists(pid_file); ++i) ::usleep(10'000);
  pid_t pid = 0;
  std::ifstream(pid_file) >> pid;
  ASSERT_GT(pid, 0);
  {
    HeadStartHost rerun(machine, std::move(started));
    EXPECT_EQ(rerun.run(tools.tool("other")).out, "other\n");
  }
  EXPECT_NE(::kill(pid, 0), 0) << "a run nobody waits for still runs after detection";
}

}  // namespace
}  // namespace hwaccel
