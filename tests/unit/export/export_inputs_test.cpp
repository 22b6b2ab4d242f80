// A recording made by `detect --record` must also hold what the exports read
// after detection, or `export slurm --host RECORDING` names other device nodes
// than the live machine did (found on the recorded H200: "/dev/nvidia0 ...
// index assumed" on replay, the module's Device Minor live).
#include "src/export/export_inputs.h"

#include <gtest/gtest.h>

#include "src/export/fleet_exports.h"
#include "src/host/recording_host.h"
#include "src/host/snapshot_host.h"
#include "src/snapshot/snapshot_codec.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

struct Exports {
  std::string live, replayed;
};

// `fixture` plays the live machine; it is recorded, written, read back and replayed.
Exports record_and_replay(const std::string& fixture, bool read_inputs) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + fixture + ".yaml"));
  EXPECT_FALSE(loaded.error) << loaded.error->to_string();
  SnapshotHost machine(*loaded.snapshot);
  RecordingHost recorder(machine);
  Detection live = detect(recorder);
  if (read_inputs) read_export_inputs(recorder, live);
  Exports out;
  out.live = render_slurm(machine, live);  // not through the recorder: `export` does not record

  Snapshot saved;
  auto error = parse_snapshot(write_snapshot(recorder.snapshot({})), "recorded.yaml", saved);
  EXPECT_FALSE(error) << error->to_string();
  SnapshotHost replay(saved);
  out.replayed = render_slurm(replay, detect(replay));
  return out;
}

TEST(ExportInputs, WithoutThemTheReplayedGresGuessesTheDeviceNodes) {
  // The DGX H100's information files give each GPU its minor; detection never reads them.
  Exports e = record_and_replay("dgx-h100", false);
  EXPECT_EQ(e.live.find("index assumed"), std::string::npos) << e.live;
  EXPECT_NE(e.replayed.find("index assumed"), std::string::npos) << e.replayed;
}

class ExportInputsOfFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(ExportInputsOfFixture, TheReplayedSlurmExportEqualsTheLiveOne) {
  Exports e = record_and_replay(GetParam(), true);
  EXPECT_EQ(e.live, e.replayed);
}

INSTANTIATE_TEST_SUITE_P(FixtureHosts, ExportInputsOfFixture,
                         ::testing::ValuesIn(testing::fixture_host_names()),
                         [](const auto& info) { return testing::test_name(info.param); });

}  // namespace
}  // namespace hwaccel
