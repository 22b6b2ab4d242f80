// Recording a host and replaying the recording gives the same report, for
// every fixture host used as the machine being recorded. Guards the recorder's
// handling of links: a probe that readlinks /sys/class/drm/card1/device and
// then reads card1/device/mem_info_vram_total must find that file on replay,
// where links are followed on every component.
#include <gtest/gtest.h>

#include <filesystem>

#include "src/host/recording_host.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "src/report/detect_json.h"
#include "src/snapshot/snapshot_codec.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

class RecordReplay : public ::testing::TestWithParam<std::string> {};

TEST_P(RecordReplay, TheReplayOfARecordingEqualsTheRecordedRun) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + GetParam() + ".yaml"));
  ASSERT_FALSE(loaded.error) << loaded.error->to_string();
  SnapshotHost machine(*loaded.snapshot);
  RecordingHost recorder(machine);
  Detection live = detect(recorder);

  Snapshot saved;
  auto error = parse_snapshot(write_snapshot(recorder.snapshot({})), "recorded.yaml", saved);
  ASSERT_FALSE(error) << error->to_string();
  SnapshotHost replay(saved);
  Detection replayed = detect(replay);
  EXPECT_TRUE(replay.misses().empty()) << "the recording lacks a tool run the probes made";
  EXPECT_EQ(render_detect_json(live), render_detect_json(replayed));
}

INSTANTIATE_TEST_SUITE_P(FixtureHosts, RecordReplay,
                         ::testing::ValuesIn(testing::fixture_host_names()),
                         [](const auto& info) { return testing::test_name(info.param); });

}  // namespace
}  // namespace hwaccel
