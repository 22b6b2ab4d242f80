// `hwsim run`'s plan (sim/run_plan.h): what a warm run reads back from the plan
// cache is what the cold run made, for every fixture host; and the cached text is
// untrusted: anything encode_run_plan would not write is an error (the caller's
// miss), never a plan.
#include "sim/run_plan.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "sim/kernel_fill.h"
#include "sim/materialize.h"
#include "sim/nvidia_software.h"
#include "src/host/snapshot_host.h"
#include "tests/support/test_support.h"

namespace hwaccel::sim {
namespace {

namespace fs = std::filesystem;

Snapshot fixture(const std::string& name) {
  auto loaded =
      load_snapshot_file(hwaccel::testing::source_path("fixtures/hosts/" + name + ".yaml"));
  EXPECT_TRUE(loaded.snapshot) << name;
  return loaded.snapshot ? *loaded.snapshot : Snapshot{};
}

RunPlan plan_of(const std::string& name) {
  RunPlan plan = make_run_plan(fixture(name));
  plan.snapshot_sha256 = std::string(64, 'a');
  return plan;
}

TEST(RunPlan, EveryFixtureReadsBackAsTheSamePlan) {
  int hosts = 0;
  for (const auto& e : fs::directory_iterator(hwaccel::testing::source_path("fixtures/hosts"))) {
    if (e.path().extension() != ".yaml") continue;
    auto loaded = load_snapshot_file(e.path().string());
    if (!loaded.snapshot || !check_tool_names(*loaded.snapshot).empty()) continue;
    RunPlan plan = make_run_plan(*loaded.snapshot);
    plan.snapshot_sha256 = std::string(64, '0');
    std::string why;
    auto back = decode_run_plan(encode_run_plan(plan), why);
    ASSERT_TRUE(back) << e.path() << ": " << why;
    EXPECT_TRUE(*back == plan) << e.path();
    EXPECT_EQ(encode_run_plan(*back), encode_run_plan(plan)) << e.path();
    ++hosts;
  }
  EXPECT_GT(hosts, 20);
}

TEST(RunPlan, HoldsWhatTheRunReadsFromTheSnapshot) {
  const Snapshot s = fixture("dgx-h100");
  const RunPlan plan = make_run_plan(s);
  EXPECT_EQ(plan.hostname, s.facts.hostname);
  EXPECT_EQ(plan.cpus, 224);
  EXPECT_TRUE(plan.nvidia_present);
  EXPECT_EQ(plan.tools_missing, tools_recorded_missing(s));
  const MountPlan mounts = plan_mounts(with_implied_proc(s));
  EXPECT_EQ(plan.mounts.proc_present, mounts.proc_present);
  EXPECT_EQ(plan.mounts.not_presented, mounts.not_presented);
  ASSERT_FALSE(plan.dev_nodes.empty());
  EXPECT_EQ(plan.dev_nodes[0].node.path.rfind("/dev/", 0), 0u);
  EXPECT_EQ(plan.markers_shown.size() + plan.markers_hidden.size(),
            container_marker_paths().size());
}

TEST(RunPlan, ValuesWithSpacesNewlinesAndBackslashesReadBack) {
  RunPlan plan = plan_of("gx10");
  plan.hostname = "a b\nc\\d \\n";
  plan.kernel = "";
  plan.nvidia_why = " ";
  plan.mounts.not_presented.push_back("/etc/with space\nand newline\\");
  plan.mounts.tools_refused.emplace_back("/etc/x y", "a configuration folder (/etc)");
  std::string why;
  auto back = decode_run_plan(encode_run_plan(plan), why);
  ASSERT_TRUE(back) << why;
  EXPECT_TRUE(*back == plan);
}

// Each damage of a good plan's text is refused, with a reason.
TEST(RunPlan, ACorruptOrForgedPlanIsNeverAPlan) {
  const std::string good = encode_run_plan(plan_of("dgx-h100"));
  std::string why;
  ASSERT_TRUE(decode_run_plan(good, why)) << why;
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? good : s.replace(at, from.size(), to);
  };
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "empty"},
      {good.substr(0, good.size() - 4), "cut short"},
      {good.substr(0, good.size() / 2), "cut in the middle"},
      {good.substr(0, good.size() - 1), "no newline at the end"},
      {good + "cpus 1\n", "text after end"},
      {replace("hwsim-run-plan 1", "hwsim-run-plan 2"), "another version"},
      {replace("cpus 224\n", "cpus 224\ncpus 8\n"), "a scalar twice"},
      {replace("cpus 224\n", ""), "a scalar missing"},
      {replace("cpus 224", "cpus -1"), "a negative number"},
      {replace("cpus 224", "cpus 2x"), "not a number"},
      {replace("cpus 224", "cpus 99999999999999999999"), "a number out of range"},
      {replace("emulated-tools 1", "emulated-tools yes"), "not a flag"},
      {replace("end\n", "bogus 1\nend\n"), "an unknown tag"},
      {replace("end\n", "env LD_PRELOAD /tmp/evil.so\nend\n"), "a variable off the allow-list"},
      {replace("end\n", "env CUDA_VISIBLE_DEVICES $(reboot)\nend\n"), "a value of the wrong shape"},
      {replace("end\n", "tool-path /etc/passwd\nend\n"), "a shim over a configuration file"},
      {replace("end\n", "tool-path /usr/lib/libc.so.6\nend\n"), "a shim over a library"},
      {replace("end\n", "tool-path /opt/../etc/x\nend\n"), "a path not normal"},
      {replace("end\n", "proc-present /etc/shadow\nend\n"), "a /proc mount outside /proc"},
      {replace("end\n", "dev-node 1 3 438 1 /etc/x\nend\n"), "a device outside /dev"},
      {replace("end\n", "dev-node 1 3 99999 1 /dev/x\nend\n"), "a mode out of range"},
      {replace("end\n", "marker-shown /.dockerenv\nend\n"), "a marker twice"},
      {replace("end\n", "marker-shown /etc/passwd\nend\n"), "not a marker"},
      {replace("hostname dgx", "hostname \\qdgx"), "a bad escape"},
      {replace("hostname dgx", "hostname dgx\\"), "an escape cut short"},
      {replace("sha256 ", "sha256 zz"), "a bad digest"},
  };
  for (const auto& [text, what] : bad) {
    why.clear();
    EXPECT_FALSE(decode_run_plan(text, why)) << what;
    EXPECT_FALSE(why.empty()) << what;
  }
}

}  // namespace
}  // namespace hwaccel::sim
