#include "src/host/recording_host.h"

#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "src/snapshot/snapshot_codec.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

TEST(RecordingHost, ReplaysEveryAnswerItSaw) {
  testing::FakeHost live;
  live.files["/proc/meminfo"] = "MemTotal: 5 kB\n";
  live.files["/sys/class/drm/card0/uevent"] = "DRIVER=amdgpu\n";
  live.errors["/dev/accel/accel0"] = EACCES;
  ToolRun smi;
  smi.exit_code = 9;
  smi.out = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n";
  live.tools[{"nvidia-smi", "-L"}] = smi;
  live.environment["CUDA_VISIBLE_DEVICES"] = "0";

  RecordingHost rec(live);
  EXPECT_TRUE(rec.read("/proc/meminfo").ok());
  EXPECT_EQ(rec.read("/proc/cpuinfo").error().code, ENOENT);
  EXPECT_EQ(rec.read("/dev/accel/accel0").error().code, EACCES);
  EXPECT_TRUE(rec.list("/sys/class/drm").ok());
  EXPECT_EQ(rec.run({"nvidia-smi", "-L"}).exit_code, 9);
  EXPECT_EQ(rec.run({"rocm-smi"}).outcome, ToolOutcome::not_found);
  EXPECT_EQ(rec.env("CUDA_VISIBLE_DEVICES").value(), "0");
  EXPECT_FALSE(rec.env("HIP_VISIBLE_DEVICES"));

  SnapshotInfo info;
  info.label = "fake";
  Snapshot snapshot = rec.snapshot(info);
  // Through the YAML form, as a user's file would go.
  Snapshot loaded;
  auto error = parse_snapshot(write_snapshot(snapshot), "rec.yaml", loaded);
  ASSERT_FALSE(error) << error->to_string();
  SnapshotHost replay(loaded);

  EXPECT_EQ(replay.read("/proc/meminfo").value(), "MemTotal: 5 kB\n");
  EXPECT_EQ(replay.read("/proc/cpuinfo").error().code, ENOENT);
  EXPECT_EQ(replay.read("/dev/accel/accel0").error().code, EACCES);
  EXPECT_EQ(replay.list("/sys/class/drm").value(), std::vector<std::string>{"card0"});
  auto run = replay.run({"nvidia-smi", "-L"});
  EXPECT_EQ(run.exit_code, 9);
  EXPECT_EQ(run.out, smi.out);
  EXPECT_EQ(replay.run({"rocm-smi"}).outcome, ToolOutcome::not_found);
  EXPECT_TRUE(replay.misses().empty()) << "a recorded not-found must not count as a miss";
  EXPECT_EQ(replay.env("CUDA_VISIBLE_DEVICES").value(), "0");
  EXPECT_EQ(replay.facts().hostname, "fake");
  EXPECT_EQ(loaded.files.at("/proc/cpuinfo").kind, FileEntry::Kind::absent);
}

TEST(RecordingHost, ClockIsReadOnceAndBecomesRecordedAt) {
  testing::FakeHost live;
  RecordingHost rec(live);
  std::string first = rec.now();
  EXPECT_EQ(rec.now(), first);
  EXPECT_EQ(rec.snapshot({}).host.recorded_at, first);
}

}  // namespace
}  // namespace hwaccel
