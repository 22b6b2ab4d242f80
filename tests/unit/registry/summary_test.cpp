#include "src/registry/summary.h"

#include <gtest/gtest.h>

#include "tests/unit/registry/registry_fixtures.h"

namespace hwaccel {
namespace {

using testing::cpu;
using testing::detection_with;
using testing::gpu;

TEST(Summary, CountsFamiliesMemoryAndTheBestDevice) {
  Detection d = detection_with({gpu("cuda", 0, 81559, 80000, "0000:18:00.0"),
                                gpu("cuda", 1, 81559, 1000, "0000:2a:00.0"), cpu()});
  d.entries[1].status = EntryStatus::unavailable;
  d.entries[1].reason = Reason{ReasonCode::reserve_exceeds_free, ""};
  d.backends[1] = {"rocm", false, Reason{ReasonCode::no_device, "none"}};
  Summary s = summarize(d);
  ASSERT_EQ(s.families.size(), 3u);
  EXPECT_EQ(s.families[0].devices, 2u);
  EXPECT_EQ(s.families[0].ready_devices, 1u);
  EXPECT_EQ(s.families[1].reason, "no-device");
  EXPECT_EQ(s.accelerators_ready, 1u);
  EXPECT_EQ(s.accelerator_memory_bytes, 81559ull << 20);
  EXPECT_EQ(s.host_memory_bytes, 64ull << 30);
  EXPECT_EQ(s.total_memory_bytes, (64ull << 30) + (81559ull << 20));
  ASSERT_TRUE(s.best);
  EXPECT_EQ(*s.best, 0u);
  EXPECT_EQ(s.types["gpu"], 1u);
  EXPECT_EQ(s.types["cpu"], 1u);
}

TEST(Summary, APhysicalDeviceSeenTwiceCountsOnce) {
  Detection d = detection_with({gpu("cuda", 0, 1024, 1000, "0000:18:00.0"),
                                gpu("rocm", 0, 1024, 1000, "0000:18:00.0"), cpu()});
  EXPECT_EQ(accelerator_memory_bytes(d), 1024ull << 20);
}

TEST(Summary, UnifiedMemoryIsAcceleratorMemoryButNotAddedToTheTotalTwice) {
  Entry g = gpu("cuda", 0, 122502, 118000, "000f:01:00.0");
  g.memory.kind = MemoryKind::unified;
  Detection d = detection_with({g, cpu()});
  Summary s = summarize(d);
  EXPECT_EQ(s.accelerator_memory_bytes, 122502ull << 20);
  EXPECT_EQ(s.total_memory_bytes, 64ull << 30);
}

TEST(Summary, MigSlicesCountAsTheirParent) {
  Entry whole = gpu("cuda", 0, 81559, 80000, "0000:18:00.0");
  whole.partitioned = true;
  Entry slice = gpu("cuda", 1, 40000, 40000);
  slice.physical_id = "mig:1";
  slice.partition = Partition{"3g.40gb", "pci:0000:18:00.0", 0, {}, {}};
  Detection d = detection_with({whole, slice, cpu()});
  EXPECT_EQ(accelerator_memory_bytes(d), 81559ull << 20);
  EXPECT_TRUE(has_ready_accelerator(d));
}

TEST(Summary, NoAcceleratorMeansTheCpuIsBest) {
  Detection d = detection_with({cpu()});
  Summary s = summarize(d);
  EXPECT_EQ(s.accelerators_ready, 0u);
  EXPECT_EQ(s.accelerator_memory_bytes, 0u);
  ASSERT_TRUE(s.best);
  EXPECT_FALSE(has_ready_accelerator(d));
}

}  // namespace
}  // namespace hwaccel
