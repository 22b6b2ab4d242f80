// Kernel-plan goldens: `hwaccel plan --hardware ID --kernels fixtures/kernels`
// checked byte for byte through the CLI's own --check against
// fixtures/kernels/plans/NAME.{md,json,txt}. Rewritten only with
// HWACCEL_REGENERATE_GOLDEN=1 (then read every diff):
//   HWACCEL_REGENERATE_GOLDEN=1 build/tests/e2e_tests --gtest_filter='KernelPlanGolden*'
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/support/run_command.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

struct Case {
  const char* file;  // under fixtures/kernels/plans
  const char* args;  // after `hwaccel plan --kernels fixtures/kernels`
  int exit_code;     // without --check
};

const Case kCases[] = {
    {"llama-3.1-8b--h100-sxm.md", "--hardware h100-sxm --model Llama-3.1-8B", 0},
    {"llama-3.1-8b--h100-sxm.json", "--hardware h100-sxm --model Llama-3.1-8B --format json", 0},
    {"llama-3.1-8b--gb10.md", "--hardware gb10 --model Llama-3.1-8B", 9},
    {"llama-3.1-8b--a100-80gb.md", "--hardware a100-80gb --model Llama-3.1-8B", 0},
    {"llama-3.1-8b-fp8--a100-80gb.md", "--hardware a100-80gb --model Llama-3.1-8B --quant fp8", 0},
    {"llama-3.1-8b-nvfp4--h100-sxm.md", "--hardware h100-sxm --model Llama-3.1-8B --quant nvfp4",
     0},
    {"llama-3.1-8b-nvfp4--b200.md", "--hardware b200 --model Llama-3.1-8B --quant nvfp4", 0},
    {"llama-3.1-70b--gb10.md", "--hardware gb10 --model Llama-3.1-70B", 9},
    {"llama-3.1-8b--l40s.md", "--hardware l40s --model Llama-3.1-8B", 4},
    {"gpt-oss-20b--h100-sxm.md", "--hardware h100-sxm --model gpt-oss-20B", 9},
    {"gpt-oss-20b--h100-sxm.txt", "--hardware h100-sxm --model gpt-oss-20B --format plan", 9},
};

class KernelPlanGolden : public ::testing::TestWithParam<Case> {};

TEST_P(KernelPlanGolden, CheckPassesAgainstTheReviewedGolden) {
  const Case& c = GetParam();
  const std::string golden = "fixtures/kernels/plans/" + std::string(c.file);
  const std::string base = "cd " + testing::source_path("") + " && " + testing::bin("hwaccel") +
                           " plan --kernels fixtures/kernels " + c.args;
  auto plain = testing::run_command(base);
  EXPECT_EQ(plain.exit_code, c.exit_code) << c.args << "\n" << plain.err;
  if (testing::regenerating_goldens()) {
    std::ofstream(testing::source_path(golden), std::ios::binary) << plain.out;
    return;
  }
  auto checked = testing::run_command(base + " --check " + golden);
  EXPECT_EQ(checked.exit_code, 0) << golden << " differs:\n" << checked.out << checked.err;
  EXPECT_EQ(checked.out, "ok: " + golden + " matches\n");
}

INSTANTIATE_TEST_SUITE_P(Plans, KernelPlanGolden, ::testing::ValuesIn(kCases),
                         [](const auto& info) {
                           std::string n = info.param.file;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

TEST(KernelPlanCheck, ADifferingGoldenExitsTenWithADiff) {
  auto dir = fs::temp_directory_path() / ("hwaccel-kcheck-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto golden =
      testing::slurp(testing::source_path("fixtures/kernels/plans/llama-3.1-8b--h100-sxm.md"));
  ASSERT_TRUE(golden);
  std::string edited = *golden;
  auto at = edited.find("| decode C=1 |");
  ASSERT_NE(at, std::string::npos);
  edited.insert(at, "| a line the report does not have |\n");
  std::ofstream((dir / "g.md").string(), std::ios::binary) << edited;
  auto r =
      testing::run_command("cd " + testing::source_path("") + " && " + testing::bin("hwaccel") +
                           " plan --kernels fixtures/kernels --hardware h100-sxm --model "
                           "Llama-3.1-8B --check " +
                           (dir / "g.md").string());
  EXPECT_EQ(r.exit_code, 10);
  EXPECT_NE(r.out.find("-| a line the report does not have |"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

TEST(KernelPlanCli, UnknownDeviceListsKnownIds) {
  auto r =
      testing::run_command("cd " + testing::source_path("") + " && " + testing::bin("hwaccel") +
                           " plan --kernels fixtures/kernels --hardware h800 --model "
                           "Llama-3.1-8B");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("known: a100-80gb, b200, gb10, h100-sxm, h200-sxm, l40s, rtx-5090"),
            std::string::npos)
      << r.err;
}

TEST(KernelPlanCli, ABadGuardInTheTreeIsALocatedError) {
  auto dir = fs::temp_directory_path() / ("hwaccel-ktree-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::copy(testing::source_path("fixtures/kernels"), dir, fs::copy_options::recursive);
  std::ofstream((dir / "csrc/pos/rope.cu").string(), std::ios::app)
      << "#if defined(X) &&\n#endif\n";
  auto r = testing::run_command(testing::bin("hwaccel") + " plan --kernels " + dir.string() +
                                " --hardware h100-sxm --model Llama-3.1-8B");
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(r.err.find("/csrc/pos/rope.cu:34:"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hwaccel

namespace hwaccel {
namespace {

TEST(KernelPlanCli, ATreeRecordedWithRecordTreeReplaysWithHostToTheSameBytes) {
  auto dir =
      std::filesystem::temp_directory_path() / ("hwaccel-krec-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string tree = testing::source_path("fixtures/kernels");
  const std::string snap = (dir / "tree.yaml").string();
  const std::string args =
      " --kernels " + tree + " --hardware b200 --model Llama-3.1-8B --quant nvfp4";
  auto live =
      testing::run_command(testing::bin("hwaccel") + " plan" + args + " --record-tree " + snap);
  EXPECT_EQ(live.exit_code, 0) << live.err;
  std::ofstream((dir / "live.md").string(), std::ios::binary) << live.out;
  // Replayed from elsewhere: every file comes from the snapshot.
  auto replay = testing::run_command("cd " + dir.string() + " && " + testing::bin("hwaccel") +
                                     " plan --host " + snap + args + " --check live.md");
  EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;
  auto text = testing::slurp(snap);
  ASSERT_TRUE(text);
  EXPECT_NE(text->find("sm121/HARDWARE.toml"), std::string::npos);
  EXPECT_EQ(text->find("plans/llama"), std::string::npos);  // goldens are not part of the tree
  std::filesystem::remove_all(dir);
}

TEST(KernelPlanCli, RecordTreeKeepsAnExistingFileUnlessForced) {
  auto dir =
      std::filesystem::temp_directory_path() / ("hwaccel-kkeep-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string snap = (dir / "mine.yaml").string();
  std::ofstream(snap, std::ios::binary) << "a user's file\n";
  const std::string cmd = testing::bin("hwaccel") + " plan --kernels " +
                          testing::source_path("fixtures/kernels") +
                          " --hardware h100-sxm --model Llama-3.1-8B --record-tree " + snap;
  auto kept = testing::run_command(cmd);
  EXPECT_NE(kept.exit_code, 0);
  EXPECT_NE(kept.err.find("--force"), std::string::npos) << kept.err;
  EXPECT_EQ(testing::slurp(snap).value_or(""), "a user's file\n");
  auto forced = testing::run_command(cmd + " --force");
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_NE(testing::slurp(snap).value_or("").find("sm90/HARDWARE.toml"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace hwaccel
