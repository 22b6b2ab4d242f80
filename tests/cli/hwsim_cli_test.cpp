// End-to-end tests of `hwsim replay`: fixtures, bad snapshots, strictness.
#include <gtest/gtest.h>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

TEST(HwsimCli, ReplaysTheGx10AsOneUnifiedMemoryGb10) {
  auto r = run_command(bin("hwsim") + " replay " + source_path("fixtures/hosts/gx10.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("cuda:0  ready"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("NVIDIA GB10"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("119.7 GiB unified (MemTotal)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sm_121 (cc 12.1)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out, slurp(source_path("fixtures/hosts/gx10.expected/detect.txt")).value_or(""));
}

TEST(HwsimCli, ReplayAndDetectOnTheSameSnapshotAgree) {
  std::string fixture = source_path("fixtures/hosts/dgx-h100.yaml");
  auto a = run_command(bin("hwsim") + " replay --json " + fixture);
  auto b = run_command(bin("hwaccel") + " detect --json --host " + fixture);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
}

struct BadSnapshot {
  const char* name;
  const char* text;
  const char* expected;  // in stderr
};

TEST(HwsimCli, RefusesBrokenSnapshotsWithALocatedError) {
  const BadSnapshot cases[] = {
      {"relative", "schema: hwaccel-snapshot/1\nfiles:\n  proc/meminfo: x\n", "relative.yaml:3:3:"},
      {"dotdot", "schema: hwaccel-snapshot/1\nfiles:\n  /sys/../etc/shadow: x\n",
       "dotdot.yaml:3:3:"},
      {"schema", "schema: hwaccel-snapshot/9\n", "schema.yaml:1:9: schema: version 9"},
      {"broken", "schema: hwaccel-snapshot/1\nfiles: {\n", "broken.yaml:"},
  };
  std::string dir = make_temp_dir();
  for (const auto& c : cases) {
    std::string path = dir + "/" + c.name + ".yaml";
    write_text(path, c.text);
    auto r = run_command(bin("hwsim") + " replay " + path);
    EXPECT_EQ(r.exit_code, 4) << c.name;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.name << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.name;
  }
  auto missing = run_command(bin("hwsim") + " replay " + dir + "/none.yaml");
  EXPECT_EQ(missing.exit_code, 4);
  EXPECT_NE(missing.err.find("none.yaml"), std::string::npos);
}

TEST(HwsimCli, AMissingToolRunIsAWarningOrUnderStrictAnError) {
  std::string dir = make_temp_dir();
  std::string path = dir + "/bare.yaml";
  write_text(path, "schema: hwaccel-snapshot/1\nfacts: {os: linux, arch: x86_64, cpus: 2}\n");
  auto loose = run_command(bin("hwsim") + " replay " + path);
  ASSERT_EQ(loose.exit_code, 0) << loose.err;
  EXPECT_NE(loose.out.find("warning: host: replay miss: the snapshot has no run of `nvidia-smi"),
            std::string::npos)
      << loose.out;
  auto strict = run_command(bin("hwsim") + " replay --strict " + path);
  EXPECT_EQ(strict.exit_code, 3);
  EXPECT_NE(strict.err.find("nvidia-smi --query-gpu="), std::string::npos) << strict.err;
}

}  // namespace
}  // namespace hwaccel::testing
