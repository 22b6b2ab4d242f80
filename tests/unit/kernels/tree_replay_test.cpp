// A kernel tree read through a RecordingHost replays from the snapshot byte for
// byte: the same files, so the same report (the CLI's --host path).
#include <gtest/gtest.h>

#include "src/host/live_host.h"
#include "src/host/recording_host.h"
#include "src/host/snapshot_host.h"
#include "src/kernels/kernel_plan.h"
#include "src/kernels/kernel_report.h"
#include "src/snapshot/snapshot_codec.h"
#include "tests/support/test_support.h"

namespace hwaccel::kernels {
namespace {

TEST(KernelTreeReplay, ARecordedTreeGivesTheSameFilesAndReport) {
  const std::string dir = ::hwaccel::testing::source_path("fixtures/kernels");
  LiveHost live;
  RecordingHost recording(live);
  auto recorded = read_tree_files(recording, dir);
  ASSERT_TRUE(recorded.error.empty()) << recorded.error;
  // Through the snapshot's text form, as `--host FILE` would load it.
  auto text = write_snapshot(recording.snapshot({}));
  Snapshot parsed;
  auto error = parse_snapshot(text, "recorded.yaml", parsed);
  ASSERT_FALSE(error) << error->to_string();
  SnapshotHost replay(parsed);
  auto replayed = read_tree_files(replay, dir);
  ASSERT_TRUE(replayed.error.empty()) << replayed.error;
  EXPECT_EQ(recorded.files, replayed.files);
  EXPECT_TRUE(recorded.files.count("sm121/HARDWARE.toml"));
  EXPECT_FALSE(recorded.files.count("plans/llama-3.1-8b--gb10.md"));  // goldens are skipped

  auto tree = parse_tree(replayed.files, "fixtures/kernels");
  ASSERT_TRUE(tree.tree) << tree.error;
  KernelRequest req;
  req.device = "gb10";
  req.spec = *plan::builtin_model("Llama-3.1-8B").spec;
  req.quant = *plan::find_quant("bf16");
  auto made = make_kernel_plan(*tree.tree, req);
  ASSERT_TRUE(made.plan);
  auto golden = ::hwaccel::testing::slurp(
      ::hwaccel::testing::source_path("fixtures/kernels/plans/llama-3.1-8b--gb10.md"));
  ASSERT_TRUE(golden);
  EXPECT_EQ(render_kernel_report(*made.plan, {"fixtures/kernels"}), *golden);
}

TEST(KernelTreeReplay, AMissingTreeIsAnErrorNamingThePath) {
  LiveHost live;
  auto r = read_tree_files(live, "/nonexistent/kernels");
  EXPECT_EQ(r.error.rfind("/nonexistent/kernels: ", 0), 0u) << r.error;
}

}  // namespace
}  // namespace hwaccel::kernels
