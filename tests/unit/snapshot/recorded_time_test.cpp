// When a snapshot was taken: recorded_at, else the time a recorded nvidia-smi
// output printed, in the three layouts nvidia-smi and the snapshot use.
#include "src/snapshot/recorded_time.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

TEST(RecordedTime, ReadsTheThreeLayouts) {
  EXPECT_EQ(parse_recorded_time("2026-11-30T01:48:06Z"), 1796003286);
  EXPECT_EQ(parse_recorded_time("2026/07/03 22:10:46.109"), 1783116646);
  EXPECT_EQ(parse_recorded_time("Fri Jul  3 22:10:46 2026"), 1783116646);
  EXPECT_EQ(parse_recorded_time("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(iso_time_of(1796003286), "2026-11-30T01:48:06Z");
  EXPECT_EQ(iso_time_of(951782400), "2000-02-29T00:00:00Z");
}

TEST(RecordedTime, AnythingElseIsNoTime) {
  for (const char* text : {"", "yesterday", "2026-13-01T00:00:00Z", "1969-12-31T23:59:59Z",
                           "2026-11-30 01:48", "Fri Foo  3 22:10:46 2026", "2026-11-3OT01:48:06Z"})
    EXPECT_FALSE(parse_recorded_time(text)) << text;
}

TEST(RecordedTime, FallsBackToARecordedNvidiaSmiOutput) {
  Snapshot s;
  EXPECT_EQ(recorded_time_of(s), "");
  ToolEntry q;
  q.argv = {"nvidia-smi", "-q"};
  q.run.out =
      "\n==============NVSMI LOG==============\n\nTimestamp          : Fri Jul  3 "
      "22:10:45 2026\nDriver Version : 590.48.01\n";
  s.tools[q.argv] = q;
  ToolEntry other;
  other.argv = {"rocm-smi"};
  other.run.out = "2020/01/01 00:00:00.000\n";
  s.tools[other.argv] = other;
  EXPECT_EQ(recorded_time_of(s), "2026-07-03T22:10:45Z");
  s.host.recorded_at = "2026-11-30T01:48:06Z";
  EXPECT_EQ(recorded_time_of(s), "2026-11-30T01:48:06Z");
  s.host.recorded_at = "not a time";
  EXPECT_EQ(recorded_time_of(s), "2026-07-03T22:10:45Z");
}

}  // namespace
}  // namespace hwaccel
