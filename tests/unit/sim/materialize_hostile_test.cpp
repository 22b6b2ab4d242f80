// Issue 18, items 1-4 and 7: a snapshot is hostile. Nothing it says becomes shell
// (shims, env.sh), no environment variable it names steers what programs load,
// no tool name it gives writes outside .hwsim/bin, and `hwsim run` is told to
// present only /sys, /proc and /dev. Each test runs the generated text for real
// where it can and checks a canary folder stays empty.
#include <gtest/gtest.h>

#include <filesystem>

#include "sim/materialize.h"
#include "sim/mount_plan.h"
#include "src/host/process_runner.h"
#include "src/host/tree_writer.h"

namespace hwaccel::sim {
namespace {

namespace fs = std::filesystem;

class Hostile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    base_ = make_private_temp_dir("hwsim-hostile-test-", error);
    ASSERT_FALSE(base_.empty()) << error;
    canary_ = base_ + "/canary";
    root_ = base_ + "/tree";
    fs::create_directory(canary_);
    s_.facts = {"linux", "x86_64", "6.8.0", 4096, 2, "t"};
    s_.env = {{"PATH", "/usr/bin:/bin"}};
  }
  void TearDown() override { EXPECT_EQ(remove_tree(base_), ""); }

  void add_tool(std::vector<std::string> argv, std::string out = "answer\n") {
    ToolEntry t;
    t.argv = argv;
    t.run.out = std::move(out);
    s_.tools[argv] = t;
  }
  TreePlan write() {
    TreePlan plan = plan_materialize(s_, root_);
    EXPECT_EQ(plan.error, "");
    EXPECT_EQ(write_tree(plan, root_), "");
    return plan;
  }
  ToolRun sh(const std::string& script) {
    return run_process({"/bin/sh", "-c", script}, {std::chrono::milliseconds(5000)});
  }
  bool canary_untouched() const { return fs::is_empty(canary_); }

  std::string base_, canary_, root_;
  Snapshot s_;
};

const PlannedEntry* find(const TreePlan& plan, const std::string& path) {
  for (const auto& e : plan.entries)
    if (e.path == path) return &e;
  return nullptr;
}

bool has_line_with(const std::vector<std::string>& lines, const std::string& what) {
  for (const auto& line : lines)
    if (line.find(what) != std::string::npos) return true;
  return false;
}

// Item 1: the word with a newline is one argument, matched exactly; nothing runs.
TEST_F(Hostile, ANewlineInAnArgvWordRunsNothing) {
  const std::string word = "-L\ntouch " + canary_ + "/x #";
  add_tool({"nvidia-smi", word});
  add_tool({"/opt/x\ntouch " + canary_ + "/y #", "-L"});
  write();
  const std::string shim = root_ + "/.hwsim/bin/nvidia-smi";
  ToolRun exact = run_process({shim, word}, {std::chrono::milliseconds(5000)});
  EXPECT_EQ(exact.out, "answer\n") << exact.err;
  ToolRun other = run_process({shim, "-L"}, {std::chrono::milliseconds(5000)});
  EXPECT_EQ(other.exit_code, 127) << other.err;
  ToolRun by_path = run_process({root_ + "/opt/x\ntouch " + canary_ + "/y #", "-L"},
                                {std::chrono::milliseconds(5000)});
  EXPECT_EQ(by_path.out, "answer\n") << by_path.err;
  ToolRun miss = run_process({root_ + "/opt/x\ntouch " + canary_ + "/y #", "-q"},
                             {std::chrono::milliseconds(5000)});
  EXPECT_EQ(miss.exit_code, 127);
  EXPECT_TRUE(canary_untouched());
}

// Item 2: a key that is not a variable name never reaches env.sh; sourcing it runs nothing.
TEST_F(Hostile, EnvKeysMustBeVariableNames) {
  s_.env["X;touch " + canary_ + "/y;Y"] = "1";
  s_.env["$(touch " + canary_ + "/z)"] = "1";
  s_.env["GOOD"] = "it's $(touch " + canary_ + "/v)\nnext";
  TreePlan plan = write();
  const std::string env_sh = find(plan, "/.hwsim/env.sh")->bytes;
  EXPECT_EQ(env_sh.find("touch " + canary_ + "/y"), std::string::npos) << env_sh;
  EXPECT_TRUE(
      has_line_with(plan.warnings, "env 'X;touch " + canary_ + "/y;Y': not a variable name"));
  ToolRun sourced = sh(". " + root_ + "/.hwsim/env.sh && printf '%s' \"$GOOD\"");
  EXPECT_EQ(sourced.exit_code, 0) << sourced.err;
  EXPECT_EQ(sourced.out, "it's $(touch " + canary_ + "/v)\nnext");
  EXPECT_TRUE(canary_untouched());
  EXPECT_TRUE(is_variable_name("_A9"));
  for (const char* bad : {"", "9A", "A-B", "A B", "A=B", "BASH_FUNC_f%%"})
    EXPECT_FALSE(is_variable_name(bad)) << bad;
}

// Item 3: loader-controlling variables never reach the command or env.sh.
TEST_F(Hostile, LoaderVariablesAreDropped) {
  for (const char* key : {"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES",
                          "GCONV_PATH", "BASH_ENV", "PYTHONPATH"})
    s_.env[key] = "/sys/evil.so";
  s_.env["CUDA_VISIBLE_DEVICES"] = "0";
  std::vector<std::string> dropped;
  auto env = run_environment(s_, "/x/.hwsim/bin", &dropped);
  EXPECT_EQ(env, (std::map<std::string, std::string>{{"CUDA_VISIBLE_DEVICES", "0"},
                                                     {"PATH", "/x/.hwsim/bin:/usr/bin:/bin"}}));
  EXPECT_EQ(dropped.size(), 7u);
  EXPECT_TRUE(has_line_with(dropped, "env LD_PRELOAD: makes programs load or run code"));
  TreePlan plan = write();
  EXPECT_EQ(find(plan, "/.hwsim/env.sh")->bytes.find("/sys/evil.so"), std::string::npos);
  EXPECT_EQ(find(plan, "/.hwsim/env")->bytes.find("/sys/evil.so"), std::string::npos);
  EXPECT_TRUE(has_line_with(plan.warnings, "env LD_PRELOAD"));
}

// Item 4: files outside /sys, /proc, /dev are listed as not presented; a tool run
// by absolute path has its shim alone in .hwsim/paths, which is what `hwsim run` mounts.
TEST_F(Hostile, OnlySysProcDevArePresented) {
  s_.files["/etc/ld.so.preload"] = FileEntry::of_content(canary_ + "/evil.so\n");
  s_.files["/sys/a"] = FileEntry::of_content("1\n");
  s_.files["/opt/vendor/tools/t"] = FileEntry::of_content("snapshot bytes\n");
  add_tool({"/etc/tool", "-q"});
  add_tool({"/opt/vendor/tools/t", "-q"});
  MountPlan mounts = plan_mounts(s_);
  EXPECT_EQ(mounts.not_presented,
            (std::vector<std::string>{"/etc/ld.so.preload", "/opt/vendor/tools/t"}));
  EXPECT_EQ(mounts.tool_paths, (std::vector<std::string>{"/etc/tool", "/opt/vendor/tools/t"}));
  TreePlan plan = write();
  // The snapshot's bytes stay at the tree's path; the mounted copy is the shim.
  EXPECT_EQ(find(plan, "/opt/vendor/tools/t")->bytes, "snapshot bytes\n");
  ASSERT_TRUE(find(plan, "/.hwsim/paths/opt/vendor/tools/t"));
  EXPECT_EQ(find(plan, "/.hwsim/paths/opt/vendor/tools/t")->bytes.rfind("#!/bin/sh\n", 0), 0u);
  EXPECT_FALSE(find(plan, "/.hwsim/paths/etc/ld.so.preload"));
  EXPECT_EQ(std::distance(fs::directory_iterator(root_ + "/.hwsim/paths/etc"), {}), 1);
}

// Item 7: names that cannot be a shim stop the plan before anything is planned,
// naming the run.
TEST_F(Hostile, ToolNamesThatCannotBeShimsAreRefusedWithTheirRun) {
  for (const std::string name :
       {"", ".", "..", "bin/x", "./x", "/opt/../etc/x", "/", "/.hwsim/x"}) {
    s_.tools.clear();
    add_tool({"ok-tool", "-L"});
    add_tool({name, "-L"});
    TreePlan plan = plan_materialize(s_, root_);
    EXPECT_NE(plan.error.find("tools: the run of `"), std::string::npos) << name;
    EXPECT_NE(plan.error.find("argv[0] ("), std::string::npos) << plan.error;
    EXPECT_TRUE(plan.entries.empty()) << name;
    EXPECT_EQ(check_tool_names(s_), plan.error);
    EXPECT_NE(write_tree(plan, root_), "");
    EXPECT_FALSE(fs::exists(root_)) << name << ": written before the refusal";
  }
}

// A NUL byte in an argv word: no program can pass it, so no shim answers it (said).
TEST_F(Hostile, ANulByteInAWordIsLeftOutAndSaid) {
  add_tool({"tool", std::string("-L\0;touch x", 11)});
  add_tool({"tool", "-q"});
  TreePlan plan = write();
  EXPECT_TRUE(has_line_with(plan.warnings, "a word holds a NUL byte"));
  EXPECT_EQ(find(plan, "/.hwsim/bin/tool")->bytes.find('\0'), std::string::npos);
}

}  // namespace
}  // namespace hwaccel::sim
