// Issue 18, items 13, 14 and 16 through the command line: a FIFO wherever a
// user names a file or in a --root tree, a Vulkan driver manifest nested
// 200,000 deep, a snapshot file over the size cap. Every run has a deadline
// (`timeout 30`), so that a regression fails the test instead of hanging it.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

CommandResult run_with_deadline(const std::string& command) {
  return run_command("timeout 30 " + command);
}

class UntrustedInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    fifo_ = dir_ + "/input";
    ASSERT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
  }
  std::string dir_ = make_temp_dir();
  std::string fifo_;
};

TEST_F(UntrustedInputs, AFifoNamedAsAnyInputIsRefusedNotWaitedFor) {
  const std::string hwaccel = bin("hwaccel"), hwsim = bin("hwsim");
  const std::vector<std::string> commands = {
      hwaccel + " detect --host " + fifo_,
      hwaccel + " devices --host " + fifo_,
      hwaccel + " devices --from " + fifo_,
      hwaccel + " plan --model " + fifo_,
      hwaccel + " plan --model Llama-3-8B --devices " + fifo_,
      hwaccel + " cost --model Llama-3-8B --instances " + fifo_,
      hwsim + " replay " + fifo_,
      hwsim + " diff " + fifo_ + " " + fifo_,
  };
  for (const auto& command : commands) {
    auto r = run_with_deadline(command);
    EXPECT_EQ(r.exit_code, 4) << command << "\n" << r.err;
    EXPECT_NE(r.err.find(fifo_ + ": a FIFO, not a regular file"), std::string::npos)
        << command << "\n"
        << r.err;
    EXPECT_LT(r.seconds, 10) << command;
  }
}

TEST_F(UntrustedInputs, AFifoInARootTreeIsAnUnreadableFile) {
  const std::string root = dir_ + "/root";
  ASSERT_EQ(::mkdir(root.c_str(), 0700), 0);
  ASSERT_EQ(::mkdir((root + "/proc").c_str(), 0700), 0);
  ASSERT_EQ(::mkfifo((root + "/proc/cpuinfo").c_str(), 0600), 0);
  auto r = run_with_deadline(bin("hwaccel") + " detect --root " + root);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Warnings are part of the report (stdout).
  EXPECT_NE(r.out.find("cannot read /proc/cpuinfo (EINVAL)"), std::string::npos) << r.out;
  EXPECT_LT(r.seconds, 10);
}

// ~/.local/share/vulkan/icd.d is anyone's to write; 100,000 levels crashed detect.
TEST_F(UntrustedInputs, ADeeplyNestedVulkanManifestIsAWarning) {
  const std::string data = dir_ + "/data";
  ASSERT_EQ(::mkdir(data.c_str(), 0700), 0);
  ASSERT_EQ(::mkdir((data + "/vulkan").c_str(), 0700), 0);
  ASSERT_EQ(::mkdir((data + "/vulkan/icd.d").c_str(), 0700), 0);
  const std::string manifest = data + "/vulkan/icd.d/deep.json";
  write_text(manifest, "{\"ICD\": {\"library_path\": " + std::string(200000, '[') +
                           std::string(200000, ']') + "}}");
  for (const char* command : {" detect", " select", " export prometheus"}) {
    auto r = run_with_deadline("env -u VK_DRIVER_FILES -u VK_ICD_FILENAMES XDG_DATA_HOME=" + data +
                               " " + bin("hwaccel") + command);
    EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
    if (std::string(command) == " detect") {
      EXPECT_NE(r.out.find("driver manifest " + manifest + ": nested more than 64 levels deep"),
                std::string::npos)
          << r.out;
    }
  }
}

TEST_F(UntrustedInputs, ASnapshotFileOverTheCapIsRefusedOnItsSize) {
  const std::string big = dir_ + "/big.yaml";
  write_text(big, "schema: hwaccel-snapshot/1\n");
  ASSERT_EQ(::truncate(big.c_str(), off_t{1} << 30), 0);  // sparse: no disk used
  // The peak RSS in KiB of `detect --host FILE`: the last line /usr/bin/time prints.
  auto peak_of = [&](const std::string& file, int expected_exit, CommandResult& r) {
    r = run_with_deadline("sh -c '/usr/bin/time -f %M " + bin("hwaccel") + " detect --host " +
                          file + "'");
    EXPECT_EQ(r.exit_code, expected_exit) << r.err;
    auto last = r.err.find_last_of('\n', r.err.size() - 2);
    return std::stol(r.err.substr(last == std::string::npos ? 0 : last + 1));
  };
  CommandResult small, r;
  // What the program costs with a small snapshot, in this build (an ASan build
  // starts near 170 MB): the refusal must add little to it.
  long baseline_kib = peak_of(source_path("fixtures/hosts/cpu-only.yaml"), 0, small);
  long peak_kib = peak_of(big, 4, r);
  EXPECT_NE(r.err.find(big + ": larger than the 512 MiB a snapshot may be"), std::string::npos)
      << r.err;
  // Was 1,052,228 KiB: 512 MiB read, then a 1 GiB string.
  EXPECT_LT(peak_kib, baseline_kib + 64 * 1024) << r.err;
  std::printf(
      "[ measured ] detect --host on a 1 GiB file: refused in %.3f s, peak RSS %ld KiB "
      "(%ld KiB with a small snapshot)\n",
      r.seconds, peak_kib, baseline_kib);
}

}  // namespace
}  // namespace hwaccel::testing
