// Issue 18, items 1-4 and 7: a snapshot is hostile. Nothing it says becomes shell
// (shims, env.sh), no environment variable it names steers what programs load,
// no tool name it gives writes outside .hwsim/bin, and `hwsim run` is told to
// present only /sys, /proc and /dev. Each test runs the generated text for real
// where it can and checks a canary folder stays empty.
#include <gtest/gtest.h>

#include <filesystem>

#include "sim/materialize.h"
#include "sim/mount_plan.h"
#include "sim/run_environment.h"
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
  EXPECT_EQ(env_sh.find("touch " + canary_), std::string::npos) << env_sh;
  ToolRun sourced = sh(". " + root_ + "/.hwsim/env.sh && printf '%s' \"${GOOD-unset}\"");
  EXPECT_EQ(sourced.exit_code, 0) << sourced.err;
  EXPECT_EQ(sourced.out, "unset");
  EXPECT_TRUE(canary_untouched());
  EXPECT_TRUE(is_variable_name("_A9"));
  for (const char* bad : {"", "9A", "A-B", "A B", "A=B", "BASH_FUNC_f%%"})
    EXPECT_FALSE(is_variable_name(bad)) << bad;
}

// Issue 31: the command gets this machine's environment and, of the snapshot's,
// only the device view. Every variable that names a program, a library, a
// configuration or a home folder is left in the snapshot, whatever its name.
TEST_F(Hostile, OnlyTheDeviceViewIsPassedOn) {
  for (const char* key : {"LD_PRELOAD", "LD_LIBRARY_PATH", "GCONV_PATH", "BASH_ENV", "PYTHONPATH",
                          "HOME", "PYTHONUSERBASE", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_COUNT",
                          "OPENSSL_CONF", "XDG_CONFIG_HOME", "PAGER", "EDITOR", "SOME_NEW_HOOK"})
    s_.env[key] = "/sys/evil";
  s_.env["PATH"] = ".:/sys/bin::bin";
  s_.env["CUDA_VISIBLE_DEVICES"] = "0,GPU-5f3c2a10-aaaa";
  s_.env["HIP_VISIBLE_DEVICES"] = "0;touch /tmp/x";  // not a device list
  const std::map<std::string, std::string> here = {{"HOME", "/home/me"},
                                                   {"PATH", "/usr/bin::.:bin:/bin"},
                                                   {"ROCR_VISIBLE_DEVICES", "3"},
                                                   {"TERM", "xterm"}};
  std::vector<std::string> refused, notes;
  auto env = run_environment(s_, here, "/x/.hwsim/bin", &refused, &notes);
  EXPECT_EQ(env,
            (std::map<std::string, std::string>{{"CUDA_VISIBLE_DEVICES", "0,GPU-5f3c2a10-aaaa"},
                                                {"HOME", "/home/me"},
                                                {"PATH", "/x/.hwsim/bin:/usr/bin:/bin"},
                                                {"TERM", "xterm"}}));
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_TRUE(has_line_with(refused, "env HIP_VISIBLE_DEVICES"));
  EXPECT_TRUE(has_line_with(notes, "14 recorded variables not passed on"));
  EXPECT_TRUE(has_line_with(notes, "this machine's ROCR_VISIBLE_DEVICES is not passed on"));
  TreePlan plan = write();
  for (const char* file : {"/.hwsim/env.sh", "/.hwsim/env"})
    EXPECT_EQ(find(plan, file)->bytes.find("/sys/"), std::string::npos) << file;
  EXPECT_TRUE(has_line_with(plan.warnings, "env HIP_VISIBLE_DEVICES"));
  // Sourced in a shell whose PATH has relative and empty entries: they are gone.
  ToolRun sourced = sh("HOME=/h; PATH=/usr/bin::.:rel:/bin; ROCR_VISIBLE_DEVICES=1; . " + root_ +
                       "/.hwsim/env.sh && printf '%s|%s|%s|%s' \"$PATH\" \"$HOME\" "
                       "\"$CUDA_VISIBLE_DEVICES\" \"${ROCR_VISIBLE_DEVICES-unset}\"");
  EXPECT_EQ(sourced.out, root_ + "/.hwsim/bin:/usr/bin:/bin|/h|0,GPU-5f3c2a10-aaaa|unset")
      << sourced.err;
}

// Each allow-listed variable takes its own shape and nothing else.
TEST(DeviceView, ValuesMustHaveTheirShape) {
  auto ok = [](const char* name, const char* value) {
    return find_device_variable(name)->valid(value);
  };
  EXPECT_TRUE(ok("CUDA_VISIBLE_DEVICES", ""));
  EXPECT_TRUE(ok("CUDA_VISIBLE_DEVICES", "-1"));
  EXPECT_TRUE(ok("CUDA_VISIBLE_DEVICES", "MIG-GPU-5f3c2a10-1111/1/0,MIG-abc-def"));
  EXPECT_FALSE(ok("CUDA_VISIBLE_DEVICES", "0 1"));
  EXPECT_FALSE(ok("CUDA_VISIBLE_DEVICES", "/etc/passwd"));
  EXPECT_FALSE(ok("CUDA_VISIBLE_DEVICES", "GPU-../../x"));
  EXPECT_TRUE(ok("NVIDIA_VISIBLE_DEVICES", "all"));
  EXPECT_TRUE(ok("CUDA_DEVICE_ORDER", "PCI_BUS_ID"));
  EXPECT_FALSE(ok("CUDA_DEVICE_ORDER", "pci"));
  EXPECT_TRUE(ok("ZE_AFFINITY_MASK", "0.1,1"));
  EXPECT_FALSE(ok("ZE_AFFINITY_MASK", "0..1"));
  EXPECT_TRUE(ok("NEURON_RT_VISIBLE_CORES", "0-3,8"));
  EXPECT_TRUE(ok("ONEAPI_DEVICE_SELECTOR", "level_zero:0,1;opencl:gpu"));
  EXPECT_FALSE(ok("ONEAPI_DEVICE_SELECTOR", "level_zero:$(id)"));
  EXPECT_TRUE(ok("TPU_ACCELERATOR_TYPE", "v5litepod-8"));
  EXPECT_FALSE(ok("TPU_ACCELERATOR_TYPE", "v4 8"));
  EXPECT_TRUE(ok("KUBERNETES_SERVICE_HOST", "10.96.0.1"));
  EXPECT_FALSE(ok("KUBERNETES_SERVICE_HOST", "evil.example.com"));
  EXPECT_EQ(find_device_variable("HOME"), nullptr);
  EXPECT_EQ(find_device_variable("PATH"), nullptr);
  for (const auto& v : device_view_variables()) EXPECT_FALSE(v.why.empty()) << v.name;
}

TEST(DeviceView, HostnameTheKernelRefusesIsAPlaceholder) {
  std::string note;
  EXPECT_EQ(run_hostname("gx10-a1", &note), "gx10-a1");
  EXPECT_EQ(note, "");
  EXPECT_EQ(run_hostname(std::string(65, 'a'), &note), kPlaceholderHostname);
  EXPECT_NE(note.find("longer than the kernel takes"), std::string::npos);
  EXPECT_EQ(run_hostname("a\nb", &note), kPlaceholderHostname);
  EXPECT_EQ(run_hostname("", &note), kPlaceholderHostname);
}

TEST(DeviceView, PathKeepsAbsoluteEntriesOnly) {
  EXPECT_EQ(absolute_entries(".:/a::b:/c/d:"), "/a:/c/d");
  EXPECT_EQ(absolute_entries(""), "");
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
  EXPECT_EQ(mounts.tool_paths, (std::vector<std::string>{"/opt/vendor/tools/t"}));
  ASSERT_EQ(mounts.tools_refused.size(), 1u);
  EXPECT_EQ(mounts.tools_refused[0].first, "/etc/tool");
  TreePlan plan = write();
  // The snapshot's bytes stay at the tree's path; the mounted copy is the shim.
  EXPECT_EQ(find(plan, "/opt/vendor/tools/t")->bytes, "snapshot bytes\n");
  ASSERT_TRUE(find(plan, "/.hwsim/paths/opt/vendor/tools/t"));
  EXPECT_EQ(find(plan, "/.hwsim/paths/opt/vendor/tools/t")->bytes.rfind("#!/bin/sh\n", 0), 0u);
  EXPECT_FALSE(find(plan, "/.hwsim/paths/etc/ld.so.preload"));
  EXPECT_EQ(std::distance(fs::directory_iterator(root_ + "/.hwsim/paths/etc"), {}), 1);
}

// Issue 31: a tool recorded at a system, library or loader path is never presented
// there (hwsim run also refuses any path this machine has, in the namespace).
TEST(ToolPaths, SystemLibraryAndLoaderPathsAreRefused) {
  for (const char* path :
       {"/etc/x", "/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2",
        "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "/usr/lib64/x", "/libx32/y",
        "/opt/v/ld-linux-aarch64.so.1", "/opt/v/libfoo.so", "/opt/v/ld.so.cache"})
    EXPECT_NE(tool_path_refusal(path), "") << path;
  for (const char* path :
       {"/opt/qti-aic/tools/qaic-util", "/usr/bin/env", "/opt/v/solver", "/usr/local/bin/x.sox"})
    EXPECT_EQ(tool_path_refusal(path), "") << path;
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
