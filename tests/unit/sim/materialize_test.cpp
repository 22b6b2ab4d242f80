// hwsim materialize: the plan, and the shims run for real (through the same
// process runner as LiveHost): every recorded ToolRun comes back as recorded.
#include "sim/materialize.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <set>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <optional>
#include <vector>

#include "sim/mount_plan.h"
#include "src/host/live_host.h"
#include "src/host/process_runner.h"
#include "src/host/tree_writer.h"

namespace hwaccel::sim {
namespace {

namespace fs = std::filesystem;

ToolEntry tool(std::vector<std::string> argv, ToolRun run) {
  ToolEntry t;
  t.argv = std::move(argv);
  t.run = std::move(run);
  return t;
}

Snapshot sample() {
  Snapshot s;
  s.facts = {"linux", "aarch64", "6.17.0", 4096, 20, "spark"};
  s.env = {{"CUDA_VISIBLE_DEVICES", "0"}};
  s.files["/proc/meminfo"] = FileEntry::of_content("MemTotal:       125508468 kB\n");
  s.files["/sys/class/drm/card0"] = FileEntry::of_link("../../devices/pci0/drm/card0");
  s.files["/sys/class/drm/card0/device/vendor"] = FileEntry::of_content("0x10de\n");
  s.files["/sys/class/drm"] = FileEntry::of_dir({"card0", "renderD128", "version"});
  s.files["/dev/nvidia0"] = FileEntry::of_node(FileKind::char_device);
  s.files["/dev/nvidia1"] = FileEntry::of_absent();
  s.files["/sys/secret"] = FileEntry::of_error(EACCES);
  s.files["/sys/loop"] = FileEntry::of_error(ELOOP);
  s.files["/proc/driver/nvidia/version"] = FileEntry::of_content("NVRM version: 580.95.05\n");
  s.files["/proc/self/cpuset"] = FileEntry::of_content("/\n");
  s.files["/proc/driver/nvidia/gpus"] = FileEntry::of_absent();
  ToolRun list;
  list.out = "GPU 0: NVIDIA GB10 (UUID: GPU-1)\n";
  ToolRun failed;
  failed.exit_code = 9;
  failed.out = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n";
  failed.err = std::string("\x00\xff binary\n", 9);
  ToolRun hang;
  hang.outcome = ToolOutcome::timeout;
  ToolRun killed;
  killed.outcome = ToolOutcome::signal;
  killed.signal = 9;
  ToolRun missing;
  missing.outcome = ToolOutcome::not_found;
  for (auto t :
       {tool({"nvidia-smi", "-L"}, list), tool({"nvidia-smi", "it's a 'quoted' arg", ""}, failed),
        tool({"nvidia-smi", "topo", "-m"}, hang), tool({"rocm-smi"}, killed),
        tool({"hl-smi", "-L"}, missing), tool({"/opt/qti-aic/tools/qaic-util", "-q"}, list)})
    s.tools[t.argv] = t;
  return s;
}

const PlannedEntry* find(const TreePlan& plan, const std::string& path) {
  for (const auto& e : plan.entries)
    if (e.path == path) return &e;
  return nullptr;
}

TEST(Materialize, PlansFilesLinksNodesErrorsAndPlaceholders) {
  TreePlan plan = plan_materialize(sample(), "/tmp/x");
  ASSERT_TRUE(find(plan, "/proc/meminfo"));
  EXPECT_EQ(find(plan, "/proc/meminfo")->bytes, "MemTotal:       125508468 kB\n");
  ASSERT_TRUE(find(plan, "/sys/class/drm/card0"));
  EXPECT_EQ(find(plan, "/sys/class/drm/card0")->kind, PlannedEntry::Kind::link);
  // Recorded through the link: written where the link leads.
  ASSERT_TRUE(find(plan, "/sys/devices/pci0/drm/card0/device/vendor"));
  EXPECT_FALSE(find(plan, "/sys/class/drm/card0/device/vendor"));
  ASSERT_TRUE(find(plan, "/sys/class/drm/renderD128"));  // a listed name: placeholder
  EXPECT_EQ(find(plan, "/dev/nvidia0")->mode, 0600u);
  EXPECT_FALSE(find(plan, "/dev/nvidia1"));
  EXPECT_EQ(find(plan, "/sys/secret")->mode, 0000u);
  EXPECT_EQ(find(plan, "/sys/loop")->target, "loop");
  ASSERT_TRUE(find(plan, "/.hwsim/bin/nvidia-smi"));
  EXPECT_EQ(find(plan, "/.hwsim/bin/nvidia-smi")->mode, 0755u);
  EXPECT_FALSE(find(plan, "/.hwsim/bin/hl-smi"));           // recorded as not found: no shim
  ASSERT_TRUE(find(plan, "/opt/qti-aic/tools/qaic-util"));  // run by absolute path
  EXPECT_NE(find(plan, "/opt/qti-aic/tools/qaic-util")->bytes.find("data='/tmp/x/.hwsim/tools'"),
            std::string::npos);
  EXPECT_EQ(find(plan, "/.hwsim/env")->bytes, "CUDA_VISIBLE_DEVICES=0\n");
  EXPECT_NE(find(plan, "/.hwsim/env.sh")->bytes.find("export CUDA_VISIBLE_DEVICES='0'"),
            std::string::npos);
  EXPECT_NE(
      find(plan, "/.hwsim/env.sh")->bytes.find("export PATH='/tmp/x/.hwsim/bin'\"$hwsim_path\""),
      std::string::npos);
  EXPECT_NE(find(plan, "/.hwsim/special")->bytes.find("/sys/secret\terror EACCES"),
            std::string::npos);
  EXPECT_EQ(resolve_through_links(sample(), "/sys/class/drm/card0/device/vendor"),
            "/sys/devices/pci0/drm/card0/device/vendor");
}

TEST(Materialize, MountPlanSkipsPerProcessPaths) {
  MountPlan plan = plan_mounts(sample());
  EXPECT_EQ(plan.proc_present,
            (std::vector<std::string>{"/proc/driver/nvidia/version", "/proc/meminfo"}));
  EXPECT_EQ(plan.proc_absent, (std::vector<std::string>{"/proc/driver/nvidia/gpus"}));
  EXPECT_EQ(plan.tool_paths, (std::vector<std::string>{"/opt/qti-aic/tools/qaic-util"}));
  ASSERT_EQ(plan.proc_skipped.size(), 1u);
  EXPECT_EQ(plan.proc_skipped[0].rfind("/proc/self/cpuset: ", 0), 0u);
}

class MaterializedTree : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    root_ = make_private_temp_dir("hwsim-mat-test-", error);
    ASSERT_FALSE(root_.empty()) << error;
    fs::remove(root_);  // write_tree makes it
    snapshot_ = sample();
    ASSERT_EQ(write_tree(plan_materialize(snapshot_, root_), root_), "");
  }
  void TearDown() override { EXPECT_EQ(remove_tree(root_), ""); }

  ToolRun shim(std::vector<std::string> argv, int timeout_ms = 5000) {
    argv[0] = argv[0][0] == '/' ? root_ + argv[0] : root_ + "/.hwsim/bin/" + argv[0];
    return run_process(argv, {std::chrono::milliseconds(timeout_ms)});
  }
  std::string root_;
  Snapshot snapshot_;
};

TEST_F(MaterializedTree, TheTreeReadsLikeTheSnapshot) {
  LiveHost host({.root = root_});
  EXPECT_EQ(*host.read("/proc/meminfo"), "MemTotal:       125508468 kB\n");
  EXPECT_EQ(*host.read("/sys/class/drm/card0/device/vendor"), "0x10de\n");
  EXPECT_EQ(*host.readlink("/sys/class/drm/card0"), "../../devices/pci0/drm/card0");
  EXPECT_EQ(*host.list("/sys/class/drm"),
            (std::vector<std::string>{"card0", "renderD128", "version"}));
  EXPECT_EQ(host.read("/dev/nvidia1").error().code, ENOENT);
  EXPECT_EQ(host.read("/sys/loop").error().code, ELOOP);
  struct stat st {};
  ASSERT_EQ(::lstat((root_ + "/sys/secret").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0u);
}

TEST_F(MaterializedTree, ShimsAnswerEachRecordedArgvExactly) {
  for (const auto& [argv, entry] : snapshot_.tools) {
    if (entry.run.outcome == ToolOutcome::not_found) continue;
    bool hangs = entry.run.outcome == ToolOutcome::timeout;
    ToolRun got = shim(argv, hangs ? 300 : 5000);
    EXPECT_EQ(got.outcome, entry.run.outcome) << argv[0];
    EXPECT_EQ(got.exit_code, entry.run.exit_code) << argv[0];
    EXPECT_EQ(got.signal, entry.run.signal) << argv[0];
    EXPECT_EQ(got.out, entry.run.out) << argv[0];
    EXPECT_EQ(got.err, entry.run.err) << argv[0];
  }
}

TEST_F(MaterializedTree, ShimsFailLoudlyOnAnythingElse) {
  ToolRun got = shim({"nvidia-smi", "-q", "it's"});
  EXPECT_EQ(got.exit_code, 127);
  EXPECT_EQ(got.err, "hwsim shim: no recorded run: nvidia-smi '-q' 'it's'\n");
  EXPECT_EQ(shim({"nvidia-smi", "-L", "extra"}).exit_code, 127);
  EXPECT_EQ(shim({"nvidia-smi"}).exit_code, 127);
}

// A tool recorded as not found has no shim, unless this machine has it (then the
// shim stands in for "command not found": exit 127 and the shell's words).
TEST(Materialize, MissingToolsGetAShimOnlyWhenAskedTo) {
  EXPECT_EQ(tools_recorded_missing(sample()), std::set<std::string>{"hl-smi"});
  EXPECT_FALSE(find(plan_materialize(sample(), "/tmp/x"), "/.hwsim/bin/hl-smi"));
  TreePlan plan = plan_materialize(sample(), "/tmp/x", {"hl-smi"});
  const PlannedEntry* shim = find(plan, "/.hwsim/bin/hl-smi");
  ASSERT_TRUE(shim);
  EXPECT_EQ(shim->mode, 0755u);
  EXPECT_NE(shim->bytes.find("printf '%s: not found\\n' 'hl-smi' >&2\n  exit 127"),
            std::string::npos)
      << shim->bytes;
}

// The plan lends its files' bytes from the filled snapshot it keeps (TreePlan::keep):
// they outlive the snapshot it was made from, and every copy of the plan.
TEST(Materialize, ThePlanKeepsTheBytesItLends) {
  std::optional<TreePlan> copy;
  {
    TreePlan plan = plan_materialize(sample(), "/tmp/x");
    EXPECT_FALSE(plan.keep.empty());
    copy = plan;
  }
  ASSERT_TRUE(find(*copy, "/proc/meminfo"));
  EXPECT_EQ(find(*copy, "/proc/meminfo")->bytes, "MemTotal:       125508468 kB\n");
  ASSERT_TRUE(find(*copy, "/.hwsim/tools/0.out"));
  EXPECT_FALSE(find(*copy, "/.hwsim/tools/0.out")->bytes.empty());
  ASSERT_TRUE(find(*copy, "/sys/devices/system/cpu/online"));  // filled
  EXPECT_EQ(find(*copy, "/sys/devices/system/cpu/online")->bytes, "0-19\n");
}

// `special` lists each path once, in path order; a note made after the fill (a
// tool's shim at a filled path) says what is there, the fill's note gives way.
TEST(Materialize, SpecialListsEachPathOnceInOrder) {
  Snapshot s = sample();
  ToolRun online;
  online.out = "0-19\n";
  s.tools[{"/sys/devices/system/cpu/online"}] = tool({"/sys/devices/system/cpu/online"}, online);
  TreePlan plan = plan_materialize(s, "/tmp/x");
  ASSERT_TRUE(find(plan, "/.hwsim/special"));
  const std::string text = find(plan, "/.hwsim/special")->bytes;
  std::vector<std::string> paths;
  for (std::size_t at = 0; at < text.size();) {
    auto nl = text.find('\n', at);
    paths.push_back(text.substr(at, text.find('\t', at) - at));
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  EXPECT_TRUE(std::is_sorted(paths.begin(), paths.end()));
  EXPECT_EQ(std::adjacent_find(paths.begin(), paths.end()), paths.end());
  EXPECT_NE(text.find("/sys/devices/system/cpu/online\ttool shim (run by absolute path)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("/sys/devices/system/cpu/present\tfilled: derived from facts.cpus"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("/sys/secret\terror EACCES"), std::string::npos);
}

}  // namespace
}  // namespace hwaccel::sim
