#include "src/registry/saved_detection.h"

#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "src/report/detect_json.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

TEST(SavedDetection, EveryFixtureRoundTripsThroughJson) {
  for (const char* name : {"gx10", "dgx-h100", "cpu-only"}) {
    auto loaded =
        load_snapshot_file(testing::source_path(std::string("fixtures/hosts/") + name + ".yaml"));
    ASSERT_FALSE(loaded.error) << name;
    SnapshotHost host(*loaded.snapshot);
    std::string first = render_detect_json(detect(host));
    auto saved = detection_from_json_text(first);
    ASSERT_TRUE(saved.detection) << name << ": " << saved.error;
    EXPECT_EQ(render_detect_json(*saved.detection), first) << name;
  }
}

TEST(SavedDetection, RefusesOtherMajorsAndLocatesBadValues) {
  EXPECT_NE(
      detection_from_json_text(R"({"schema":"hwaccel-detect/2"})").error.find("major version 1"),
      std::string::npos);
  EXPECT_NE(detection_from_json_text(R"({"schema":"other/1"})").error.find("not a hwaccel"),
            std::string::npos);
  auto bad = detection_from_json_text(
      R"({"schema":"hwaccel-detect/1","devices":[{"type":"gpu","status":"ready"},{"type":"gpu","status":"ready","memory":{"kind":"discrete","total_bytes":"lots"}}]})");
  EXPECT_EQ(bad.error, "devices[1].memory.total_bytes: expected a non-negative integer or null");
  EXPECT_NE(detection_from_json_text("{broken").error.find("broken JSON"), std::string::npos);
}

// Issue 18, item 20: the facts' ranges, as in a snapshot.
TEST(SavedDetection, RefusesFactsOutOfTheirRange) {
  EXPECT_EQ(
      detection_from_json_text(R"({"schema":"hwaccel-detect/1","host":{"page_size":-1}})").error,
      "host.page_size: expected bytes, a power of two from 1024 to 1 GiB (or 0: unknown), "
      "found -1");
  EXPECT_EQ(detection_from_json_text(R"({"schema":"hwaccel-detect/1","host":{"cpus":-4}})").error,
            "host.cpus: expected a count of 0 or more, found -4");
}

TEST(SavedDetection, OlderDocumentsWithoutNewFieldsLoad) {
  auto saved = detection_from_json_text(
      R"({"schema":"hwaccel-detect/1","backends":[{"name":"cpu","status":"ready"}],
          "devices":[{"backend":"cpu","index":0,"type":"cpu","status":"ready","name":"x"}]})");
  ASSERT_TRUE(saved.detection) << saved.error;
  EXPECT_EQ(saved.detection->entries.size(), 1u);
  EXPECT_TRUE(saved.detection->links.empty());
}

}  // namespace
}  // namespace hwaccel
