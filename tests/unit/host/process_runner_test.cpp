#include "src/host/process_runner.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "hwaccel-proc-XXXXXX").string();
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }
  std::string write(const std::string& name, const std::string& text, fs::perms perms) const {
    fs::path file = path_ / name;
    std::ofstream(file) << text;
    fs::permissions(file, perms);
    return file.string();
  }

 private:
  fs::path path_;
};

constexpr auto kExec = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec;
constexpr auto kNoExec = fs::perms::owner_read | fs::perms::owner_write;

TEST(ProcessRunner, FindExecutableSearchesInOrder) {
  TempDir a, b;
  fs::create_directories(a.path());
  b.write("tool", "#!/bin/sh\n", kExec);
  std::string list = a.path().string() + ":" + b.path().string();
  EXPECT_EQ(find_executable("tool", list), (b.path() / "tool").string());
  a.write("tool", "#!/bin/sh\n", kExec);
  EXPECT_EQ(find_executable("tool", list), (a.path() / "tool").string());
}

TEST(ProcessRunner, FindExecutablePrefersAnExecutableOverAnEarlierPlainFile) {
  TempDir a, b;
  a.write("tool", "#!/bin/sh\n", kNoExec);
  std::string list = a.path().string() + ":" + b.path().string();
  // Only a non-executable one: returned, so that running it says permission denied.
  EXPECT_EQ(find_executable("tool", list), (a.path() / "tool").string());
  b.write("tool", "#!/bin/sh\n", kExec);
  EXPECT_EQ(find_executable("tool", list), (b.path() / "tool").string());
}

TEST(ProcessRunner, FindExecutableSkipsDirectoriesAndEmptyEntries) {
  TempDir a;
  fs::create_directories(a.path() / "tool");
  EXPECT_FALSE(find_executable("tool", a.path().string()).has_value());
  EXPECT_FALSE(find_executable("sh", "::").has_value());  // "" would mean the cwd
  EXPECT_FALSE(find_executable("no-such-tool-hwaccel", "/bin:/usr/bin").has_value());
  EXPECT_TRUE(find_executable("sh", "/nonexistent:/bin/").has_value());
}

TEST(ProcessRunner, LoaderVariables) {
  EXPECT_TRUE(is_loader_variable("LD_PRELOAD"));
  EXPECT_TRUE(is_loader_variable("LD_LIBRARY_PATH"));
  EXPECT_TRUE(is_loader_variable("LD_AUDIT"));
  EXPECT_TRUE(is_loader_variable("LD_BIND_NOW"));
  EXPECT_TRUE(is_loader_variable("DYLD_INSERT_LIBRARIES"));
  EXPECT_TRUE(is_loader_variable("DYLD_LIBRARY_PATH"));
  EXPECT_FALSE(is_loader_variable("OLD_PRELOAD"));
  EXPECT_FALSE(is_loader_variable("PATH"));
  EXPECT_FALSE(is_loader_variable("LDFLAGS"));
}

TEST(ProcessRunner, ChildEnvironmentDropsLoaderVariablesAndSetsCLocale) {
  const char* env[] = {"PATH=/bin",
                       "LD_PRELOAD=/evil.so",
                       "LC_ALL=de_DE.UTF-8",
                       "DYLD_INSERT_LIBRARIES=/x",
                       "LANG=fr_FR.UTF-8",
                       "LD_AUDIT=/a.so",
                       nullptr};
  std::vector<std::string> out = child_environment(env);
  EXPECT_EQ(out, (std::vector<std::string>{"PATH=/bin", "LANG=fr_FR.UTF-8", "LC_ALL=C"}));
  EXPECT_EQ(child_environment(nullptr), std::vector<std::string>{"LC_ALL=C"});
}

TEST(ProcessRunner, EmptyArgvIsNotFound) {
  EXPECT_EQ(run_process({}, {}).outcome, ToolOutcome::not_found);
  EXPECT_EQ(run_process({""}, {}).outcome, ToolOutcome::not_found);
}

TEST(ProcessRunner, NulInAnArgumentIsRefused) {
  ToolRun run = run_process({"/bin/echo", std::string("a\0b", 3)}, {});
  EXPECT_EQ(run.outcome, ToolOutcome::exited);
  EXPECT_EQ(run.exit_code, 126);
}

TEST(ProcessRunner, MissingAbsolutePathIsNotFound) {
  ToolRun run = run_process({"/nonexistent/hwaccel-tool"}, {});
  EXPECT_EQ(run.outcome, ToolOutcome::not_found);
  EXPECT_NE(run.err.find("No such file"), std::string::npos) << run.err;
}

TEST(ProcessRunner, DirectoryIsPermissionDenied) {
  TempDir dir;
  EXPECT_EQ(run_process({dir.path().string()}, {}).outcome, ToolOutcome::permission_denied);
}

TEST(ProcessRunner, UnknownFormatCannotExecute) {
  TempDir dir;
  std::string junk = dir.write("junk", "\x01\x02 not a program\n", kExec);
  ToolRun run = run_process({junk}, {});
  EXPECT_EQ(run.outcome, ToolOutcome::exited);
  EXPECT_EQ(run.exit_code, 126);
  EXPECT_NE(run.err.find("format"), std::string::npos) << run.err;
}

TEST(ProcessRunner, ZeroTimeoutTimesOutAtOnce) {
  ProcessLimits limits;
  limits.timeout = std::chrono::milliseconds(0);
  ToolRun run = run_process({"sleep", "30"}, limits);
  EXPECT_EQ(run.outcome, ToolOutcome::timeout);
  EXPECT_LT(run.ms, 2000);
}

TEST(ProcessRunner, OutputCapAppliesPerStream) {
  ProcessLimits limits;
  limits.output_cap = 4;
  ToolRun run = run_process({"/bin/sh", "-c", "printf 123456; printf ab >&2"}, limits);
  EXPECT_EQ(run.out, "1234");
  EXPECT_EQ(run.err, "ab");
  EXPECT_TRUE(run.truncated);
}

TEST(ProcessRunner, ClosedPipesDoNotEndTheWait) {
  // The tool closes stdout and stderr but keeps running: still a timeout.
  ProcessLimits limits;
  limits.timeout = std::chrono::milliseconds(300);
  ToolRun run = run_process({"/bin/sh", "-c", "exec >&- 2>&-; sleep 30"}, limits);
  EXPECT_EQ(run.outcome, ToolOutcome::timeout);
  EXPECT_LT(run.ms, 3000);
}

TEST(ProcessRunner, GrandchildOutsideTheGroupCostsAtMostTheTimeout) {
  // setsid takes the grandchild out of the process group, so the group kill misses
  // it and it keeps stdout open: reading stops at the deadline, the exit stands.
  if (!find_executable("setsid", "/usr/bin:/bin")) GTEST_SKIP() << "no setsid";
  ProcessLimits limits;
  limits.timeout = std::chrono::milliseconds(400);
  // The grandchild writes its pid once it has left the group; until then the shell
  // waits, or the group kill at its exit could still catch the grandchild.
  TempDir dir;
  const std::string pid_file = (dir.path() / "pid").string();
  ToolRun run = run_process({"/bin/sh", "-c",
                             "setsid sh -c 'echo $$ > \"$0\"; exec sleep 30' \"$0\" &"
                             " while [ ! -s \"$0\" ]; do sleep 0.01; done; cat \"$0\"",
                             pid_file},
                            limits);
  ASSERT_FALSE(run.out.empty());
  ::kill(std::stoi(run.out), SIGKILL);
  EXPECT_EQ(run.outcome, ToolOutcome::exited);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_GE(run.ms, 390);
  EXPECT_LT(run.ms, 3000);
}

TEST(ProcessRunner, PartialOutputOfATimedOutToolIsKept) {
  ProcessLimits limits;
  limits.timeout = std::chrono::milliseconds(300);
  ToolRun run = run_process({"/bin/sh", "-c", "echo starting; echo waiting >&2; sleep 30"}, limits);
  EXPECT_EQ(run.outcome, ToolOutcome::timeout);
  EXPECT_EQ(run.out, "starting\n");
  EXPECT_EQ(run.err, "waiting\n");
}

// The line of /proc/self/status named `key`, as the tool saw it.
std::string status_line(const std::string& status, const std::string& key) {
  auto at = status.find(key + ":");
  if (at == std::string::npos) return "";
  return status.substr(at, status.find('\n', at) - at);
}

TEST(ProcessRunner, IgnoredAndBlockedSignalsAreNotInherited) {
  // With SIGPIPE ignored here, a tool's `yes | head` pipeline would misbehave; a
  // blocked SIGTERM would make it unkillable by the usual means.
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);
  sigset_t block, old_mask;
  sigemptyset(&block);
  sigaddset(&block, SIGTERM);
  ::pthread_sigmask(SIG_BLOCK, &block, &old_mask);
  ToolRun run = run_process({"/bin/cat", "/proc/self/status"}, {});
  ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  ::sigaction(SIGPIPE, &previous, nullptr);
  ASSERT_TRUE(run.ok()) << run.err;
  EXPECT_EQ(status_line(run.out, "SigIgn"), "SigIgn:\t0000000000000000");
  EXPECT_EQ(status_line(run.out, "SigBlk"), "SigBlk:\t0000000000000000");
}

TEST(ProcessRunner, StdinIsDevNull) {
  ToolRun run = run_process({"cat"}, {});
  EXPECT_TRUE(run.ok());
  EXPECT_EQ(run.out, "");
  ToolRun link = run_process({"readlink", "/proc/self/fd/0"}, {});
  EXPECT_EQ(link.out, "/dev/null\n");
}

TEST(ProcessRunner, ToolRunsInItsOwnProcessGroup) {
  ToolRun run = run_process({"/bin/sh", "-c", "echo $$; cut -d' ' -f5 /proc/$$/stat"}, {});
  ASSERT_TRUE(run.ok()) << run.err;
  // "PID\nPGID\n": the shell leads its own group (field 5 of /proc/PID/stat).
  auto newline = run.out.find('\n');
  ASSERT_NE(newline, std::string::npos);
  EXPECT_EQ(run.out.substr(newline + 1), run.out.substr(0, newline) + "\n");
}

// start_process: the tool runs from the call on, before anyone waits for it.
TEST(ProcessRunner, AStartedToolRunsBeforeItIsWaitedFor) {
  TempDir dir;
  const std::string mark = (dir.path() / "mark").string();
  auto started = start_process({"/bin/sh", "-c", "echo here > \"$0\"; echo out", mark}, {});
  ASSERT_TRUE(started->under_way());
  EXPECT_FALSE(started->answered());
  for (int i = 0; i < 500 && !fs::exists(mark); ++i) ::usleep(10'000);
  EXPECT_TRUE(fs::exists(mark)) << "the tool did not run before finish()";
  ToolRun run = started->finish();
  ASSERT_TRUE(run.ok()) << run.err;
  EXPECT_EQ(run.out, "out\n");
}

TEST(ProcessRunner, AToolThatCannotStartIsAnsweredAtOnce) {
  auto started = start_process({"hwaccel-no-such-tool-anywhere"}, {});
  EXPECT_TRUE(started->answered());
  EXPECT_FALSE(started->under_way());
  EXPECT_EQ(started->finish().outcome, ToolOutcome::not_found);
}

// The deadline counts from the start, not from the wait.
TEST(ProcessRunner, AStartedToolsDeadlineCountsFromItsStart) {
  ProcessLimits limits;
  limits.timeout = std::chrono::milliseconds(100);
  auto started = start_process({"/bin/sh", "-c", "sleep 3"}, limits);
  ::usleep(300'000);
  ToolRun run = started->finish();
  EXPECT_EQ(run.outcome, ToolOutcome::timeout);
  EXPECT_LT(run.ms, 2000) << "waited the tool out instead of its deadline";
}

// Waited for only after its deadline, a tool that had ended in time keeps its output.
TEST(ProcessRunner, AToolThatEndedBeforeALateWaitKeepsItsOutput) {
  ProcessLimits limits;
  limits.timeout = std::chrono::milliseconds(100);
  auto started = start_process({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, limits);
  ::usleep(400'000);
  ToolRun run = started->finish();
  EXPECT_EQ(run.outcome, ToolOutcome::exited);
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_EQ(run.out, "out\n");
  EXPECT_EQ(run.err, "err\n");
}

// A started run dropped unfinished leaves no process behind.
TEST(ProcessRunner, AStartedToolDroppedUnfinishedIsKilled) {
  TempDir dir;
  const std::string pid_file = (dir.path() / "pid").string();
  auto started = start_process(
      {"/bin/sh", "-c", "echo $$ > \"$0.tmp\"; mv \"$0.tmp\" \"$0\"; sleep 30", pid_file}, {});
  for (int i = 0; i < 500 && !fs::exists(pid_file); ++i) ::usleep(10'000);
  ASSERT_TRUE(fs::exists(pid_file));
  pid_t pid = 0;
  std::ifstream(pid_file) >> pid;
  ASSERT_GT(pid, 0);
  started.reset();
  EXPECT_NE(::kill(pid, 0), 0) << "the tool still runs (or is an unreaped zombie)";
}

}  // namespace
}  // namespace hwaccel
