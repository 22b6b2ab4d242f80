// Golden replays: every fixtures/hosts/NAME.yaml is replayed and its text and
// JSON reports compared byte for byte with NAME.expected/. The goldens are
// reviewed by reading them; they are rewritten only when
// HWACCEL_REGENERATE_GOLDEN=1 is set (an explicit switch, never by default).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "src/registry/reserve.h"
#include "src/registry/selection.h"
#include "src/report/detect_json.h"
#include "src/report/detect_text.h"
#include "src/report/devices_report.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

class GoldenHost : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenHost, ReplayMatchesTheReviewedReport) {
  const std::string name = GetParam();
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + name + ".yaml"));
  ASSERT_FALSE(loaded.error) << loaded.error->to_string();
  SnapshotHost host(*loaded.snapshot);
  Detection d = detect(host);
  EXPECT_TRUE(host.misses().empty())
      << name << ".yaml lacks a tool run the probes ask for: " << host.misses()[0][0];
  fs::path dir = testing::source_path("fixtures/hosts/" + name + ".expected");
  testing::compare_or_regenerate(dir / "detect.txt", render_detect_text(d), "replay");
  testing::compare_or_regenerate(dir / "detect.json", render_detect_json(d), "replay");

  // `hwaccel devices` with the reserve the host's environment gives.
  auto reserve = choose_reserve(std::nullopt, host.env(kReserveEnv));
  ASSERT_TRUE(reserve.reserve) << reserve.error;
  apply_reserve(d, *reserve.reserve);
  Selection s = select_default(d);
  Choice choice{s.entry, s.reason, "snapshot(fixtures/hosts/" + name + ".yaml)"};
  testing::compare_or_regenerate(dir / "devices.txt",
                                 render_devices_text(d, *reserve.reserve, choice), "replay");
  testing::compare_or_regenerate(dir / "devices.json",
                                 render_devices_json(d, *reserve.reserve, choice), "replay");
}

TEST_P(GoldenHost, ReplayIsDeterministic) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + GetParam() + ".yaml"));
  ASSERT_FALSE(loaded.error);
  SnapshotHost a(*loaded.snapshot), b(*loaded.snapshot);
  EXPECT_EQ(render_detect_json(detect(a)), render_detect_json(detect(b)));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, GoldenHost, ::testing::ValuesIn(testing::fixture_host_names()),
                         [](const auto& info) { return testing::test_name(info.param); });

}  // namespace
}  // namespace hwaccel
