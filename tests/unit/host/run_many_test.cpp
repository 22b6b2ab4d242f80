// Host::run_many: several runs started together, answered in the order asked,
// recorded each, and replayed exactly.
#include <gtest/gtest.h>

#include "src/host/recording_host.h"
#include "src/host/snapshot_host.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

const std::vector<std::string> kA = {"nvidia-smi", "-L"};
const std::vector<std::string> kB = {"nvidia-smi", "topo", "-m"};
const std::vector<std::string> kC = {"nvidia-smi", "-q"};

TEST(RunMany, RecordedAndReplayedInTheOrderAsked) {
  testing::FakeHost machine;
  machine.tools[kA].out = "a\n";
  machine.tools[kB].out = "b\n";
  RecordingHost recording(machine);
  auto live = recording.run_many({kA, kB, kC});
  ASSERT_EQ(live.size(), 3u);
  EXPECT_EQ(live[0].out, "a\n");
  EXPECT_EQ(live[1].out, "b\n");
  EXPECT_EQ(live[2].outcome, ToolOutcome::not_found);

  SnapshotHost replay(recording.snapshot(SnapshotInfo{}));
  EXPECT_TRUE(replay.knows_run(kA));
  EXPECT_TRUE(replay.knows_run(kC));  // recorded as not found: an answer all the same
  EXPECT_FALSE(replay.knows_run({"nvidia-smi", "nvlink", "-s"}));
  auto again = replay.run_many({kC, kB, kA});
  ASSERT_EQ(again.size(), 3u);
  EXPECT_EQ(again[0].outcome, ToolOutcome::not_found);
  EXPECT_EQ(again[1].out, "b\n");
  EXPECT_EQ(again[2].out, "a\n");
  EXPECT_TRUE(replay.misses().empty());
}

TEST(RunMany, TheDefaultStartsThemTogether) {
  // The base implementation over a host that only has run(): each answer in its place.
  class Counting : public testing::FakeHost {
   public:
    std::vector<ToolRun> run_many(const std::vector<std::vector<std::string>>& argvs,
                                  Timeout timeout) override {
      return Host::run_many(argvs, timeout);
    }
  } host;
  host.tools[kA].out = "a";
  host.tools[kB].out = "b";
  auto runs = host.run_many({kB, kA, kB}, {});
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].out, "b");
  EXPECT_EQ(runs[1].out, "a");
  EXPECT_EQ(runs[2].out, "b");
  EXPECT_EQ(host.runs.size(), 3u);
}

}  // namespace
}  // namespace hwaccel
