// End-to-end tests of `hwaccel detect` on this machine, on a tree (--root) and
// with fake vendor tools that hang, flood, fail or answer.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>
#include <regex>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

using nlohmann::json;

TEST(HwaccelCli, DetectPrintsEveryBackendAndACpuThatIsReady) {
  auto r = run_command(bin("hwaccel") + " detect");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("BACKEND"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\ncpu "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\ncuda "), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\ncpu:0 +ready"))) << r.out;
}

TEST(HwaccelCli, JsonIsVersionedAndComplete) {
  auto r = run_command(bin("hwaccel") + " detect --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc = json::parse(r.out);
  EXPECT_EQ(doc["schema"], "hwaccel-detect/1");
  // Every backend of the build is a line, in the registry's order, the CPU last.
  std::vector<std::string> names;
  for (const auto& b : doc["backends"]) names.push_back(b["name"]);
  ASSERT_GE(names.size(), 8u);
  const std::vector<std::string> first = {"cuda",      "rocm",     "apple", "vulkan",
                                          "intel_npu", "amd_xdna", "oneapi"};
  EXPECT_TRUE(std::equal(first.begin(), first.end(), names.begin()));
  EXPECT_EQ(names.back(), "cpu");
  EXPECT_EQ(doc["backends"].back()["status"], "ready");
  EXPECT_FALSE(doc["discovered_at"].is_null());
}

// The round trip the whole design stands on, on the machine the tests run on.
TEST(HwaccelCli, RecordThenReplayGivesTheSameReport) {
  std::string dir = make_temp_dir();
  std::string snap = dir + "/h.yaml";
  auto live = run_command(bin("hwaccel") + " detect --json --no-redact --record " + snap);
  ASSERT_EQ(live.exit_code, 0) << live.err;
  auto replay = run_command(bin("hwsim") + " replay --strict --json " + snap);
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_EQ(live.out, replay.out);

  auto text_live = run_command(bin("hwaccel") + " detect --no-redact --force --record " + snap);
  auto text_replay = run_command(bin("hwaccel") + " detect --strict --host " + snap);
  EXPECT_EQ(text_live.out, text_replay.out);
}

TEST(HwaccelCli, RedactedRecordingDiffersOnlyInRedactedValues) {
  std::string dir = make_temp_dir();
  std::string snap = dir + "/h.yaml";
  auto live = run_command(bin("hwaccel") + " detect --json --record " + snap);
  ASSERT_EQ(live.exit_code, 0) << live.err;
  auto replay = run_command(bin("hwsim") + " replay --strict --json " + snap);
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  json a = json::parse(live.out), b = json::parse(replay.out);
  std::string real_host = a["host"]["hostname"];
  EXPECT_EQ(b["host"]["hostname"], "host-1");
  a["host"]["hostname"] = "host-1";
  EXPECT_EQ(a, b);
  auto saved = slurp(snap).value_or("");
  EXPECT_NE(saved.find("redacted: true"), std::string::npos);
  if (real_host.size() >= 4) {
    EXPECT_EQ(saved.find(real_host), std::string::npos) << real_host;
  }
}

TEST(HwaccelCli, AHungToolCostsItsTimeoutNotMore) {
  std::string path = fake_tool_path(make_temp_dir(), "sleep 30");
  auto r = run_command("env PATH=" + path + " " + bin("hwaccel") + " detect --json --timeout 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(r.seconds, 5.0) << "a 1 s timeout took " << r.seconds << " s";
  json doc = json::parse(r.out);
  EXPECT_EQ(doc["backends"][0]["reason"]["code"], "timeout");
  EXPECT_EQ(doc["backends"].back()["status"], "ready") << "the cpu backend is unaffected";
}

TEST(HwaccelCli, A64MiBToolOutputDoesNotHangTheDetector) {
  std::string path =
      fake_tool_path(make_temp_dir(), "head -c 67108864 /dev/zero | tr '\\0' 'x'; exit 0");
  auto r = run_command("env PATH=" + path + " " + bin("hwaccel") + " detect --json --timeout 20");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(r.seconds, 20.0);
  json doc = json::parse(r.out);
  EXPECT_EQ(doc["backends"][0]["status"], "unavailable");
  ASSERT_FALSE(doc["warnings"].empty()) << "the cap must be reported as a warning";
  EXPECT_EQ(doc["warnings"][0]["backend"], "cuda");
  EXPECT_NE(doc["warnings"][0]["message"].get<std::string>().find("was cut"), std::string::npos);
}

TEST(HwaccelCli, ADriverThatDoesNotAnswerIsAReason) {
  std::string path = fake_tool_path(
      make_temp_dir(),
      "echo \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
      "sure that the latest NVIDIA driver is installed and running.\"; exit 9");
  auto r = run_command("env PATH=" + path + " " + bin("hwaccel") + " detect");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The BACKEND column is as wide as the longest backend name: find the cuda line.
  auto at = r.out.find("\ncuda ");
  ASSERT_NE(at, std::string::npos) << r.out;
  std::string line = r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
  EXPECT_NE(line.find("unavailable  driver-not-found: NVIDIA-SMI has failed"), std::string::npos)
      << r.out;
}

TEST(HwaccelCli, AFakeGpuIsRecordedRedactedAndReplayed) {
  std::string dir = make_temp_dir();
  std::string csv =
      "index, uuid, pci.bus_id, name, memory.total [MiB], memory.used [MiB], memory.free [MiB], "
      "compute_cap, driver_version\n"
      "0, GPU-8f6e3c2a-1b4d-4e5f-9a7b-0c1d2e3f4a5b, 00000000:18:00.0, NVIDIA H100 80GB HBM3, "
      "81559 MiB, 0 MiB, 81008 MiB, 9.0, 550.54.15\n";
  write_text(dir + "/query.csv", csv);
  std::string path = fake_tool_path(dir, "cat " + dir + "/query.csv");
  std::string snap = dir + "/h.yaml";
  auto live =
      run_command("env PATH=" + path + " " + bin("hwaccel") + " detect --json --record " + snap);
  ASSERT_EQ(live.exit_code, 0) << live.err;
  json a = json::parse(live.out);
  ASSERT_EQ(a["devices"][0]["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(a["devices"][0]["memory"]["total_bytes"], 81559ull << 20);
  auto replay = run_command(bin("hwsim") + " replay --strict --json " + snap);
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  json b = json::parse(replay.out);
  // A pseudonym; its number depends on what else the recording holds (this
  // machine's own cgroup path under /proc/self may carry an id that comes first).
  EXPECT_EQ(b["devices"][0]["uuid"].get<std::string>().rfind("GPU-00000000-0000-4000-8000-", 0), 0u)
      << b["devices"][0]["uuid"];
  a["devices"][0]["uuid"] = b["devices"][0]["uuid"];
  a["host"]["hostname"] = b["host"]["hostname"];
  EXPECT_EQ(a, b);
  EXPECT_EQ(slurp(snap).value_or("").find("8f6e3c2a"), std::string::npos);
}

TEST(HwaccelCli, RootReadsATreeLaidOutLikeSlash) {
  std::string root = make_temp_dir();
  std::system(("mkdir -p " + root + "/proc").c_str());
  write_text(root + "/proc/meminfo", "MemTotal:       16384000 kB\nMemAvailable:    8192000 kB\n");
  write_text(root + "/proc/cpuinfo",
             "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU @ 1.00GHz\n"
             "flags\t\t: fpu sse2 avx2\n\n");
  auto r = run_command(bin("hwaccel") + " detect --json --only cpu --root " + root);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc = json::parse(r.out);
  ASSERT_EQ(doc["devices"].size(), 1u);
  EXPECT_EQ(doc["devices"][0]["name"], "Test CPU @ 1.00GHz");
  EXPECT_EQ(doc["devices"][0]["memory"]["total_bytes"], 16384000ull * 1024);
  EXPECT_EQ(doc["devices"][0]["compute_class"], "avx2");
}

TEST(HwaccelCli, UsageErrorsHaveTheirExitCode) {
  EXPECT_EQ(run_command(bin("hwaccel") + " detect --only warp-drive").exit_code, 2);
  EXPECT_EQ(run_command(bin("hwaccel") + " detect --timeout -1").exit_code, 2);
  EXPECT_EQ(run_command(bin("hwaccel") + " frobnicate").exit_code, 2);
  EXPECT_EQ(run_command(bin("hwaccel") + " detect --host x.yaml --record y.yaml").exit_code, 2);
  EXPECT_EQ(run_command(bin("hwaccel") + " --help").exit_code, 0);
}

TEST(HwaccelCli, OnlyLimitsTheBackends) {
  auto r = run_command(bin("hwaccel") + " detect --json --only cpu");
  ASSERT_EQ(r.exit_code, 0);
  json doc = json::parse(r.out);
  ASSERT_EQ(doc["backends"].size(), 1u);
  EXPECT_EQ(doc["backends"][0]["name"], "cpu");
}

TEST(HwaccelCli, RecordIntoAnUnwritablePlaceFailsCleanly) {
  auto r = run_command(bin("hwaccel") + " detect --record /nonexistent-dir/h.yaml");
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_NE(r.err.find("/nonexistent-dir/h.yaml"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace hwaccel::testing
