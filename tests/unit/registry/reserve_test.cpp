#include "src/registry/reserve.h"

#include <gtest/gtest.h>

#include "tests/unit/registry/registry_fixtures.h"

namespace hwaccel {
namespace {

using testing::cpu;
using testing::detection_with;
using testing::gpu;

TEST(Reserve, ParsesSizesWithBinaryUnits) {
  EXPECT_EQ(parse_size("4G"), 4ull << 30);
  EXPECT_EQ(parse_size("512M"), 512ull << 20);
  EXPECT_EQ(parse_size("1024K"), 1024ull << 10);
  EXPECT_EQ(parse_size("123"), 123u);
  EXPECT_EQ(parse_size("3584MiB"), 3584ull << 20);
  EXPECT_EQ(parse_size("1.5g"), 3ull << 29);
  EXPECT_EQ(parse_size(" 2T "), 2ull << 40);
  EXPECT_EQ(parse_size("0"), 0u);
}

TEST(Reserve, RefusesWhatIsNotASize) {
  for (const char* bad : {"", "G", "-1G", "4X", "4 G B", "1e9", "99999999999999999999999",
                          "16777216T", "1.5", ".G", "4GG"})
    EXPECT_FALSE(parse_size(bad)) << bad;
}

TEST(Reserve, FlagBeatsEnvBeatsDefault) {
  EXPECT_EQ(choose_reserve(std::nullopt, std::nullopt).reserve->source, "default");
  EXPECT_EQ(choose_reserve(std::nullopt, std::nullopt).reserve->bytes, 3584ull << 20);
  auto env = choose_reserve(std::nullopt, std::string("8G"));
  EXPECT_EQ(env.reserve->bytes, 8ull << 30);
  EXPECT_EQ(env.reserve->source, "env");
  auto flag = choose_reserve(std::string("1G"), std::string("8G"));
  EXPECT_EQ(flag.reserve->bytes, 1ull << 30);
  EXPECT_EQ(flag.reserve->source, "flag");
  auto bad = choose_reserve(std::nullopt, std::string("lots"));
  EXPECT_FALSE(bad.reserve);
  EXPECT_NE(bad.error.find("HWACCEL_RESERVE_BYTES"), std::string::npos);
}

TEST(Reserve, RefusesADeviceWithLessFreeThanTheReserveAndItsTwins) {
  auto busy = gpu("cuda", 0, 81559, 2048, "0000:1b:00.0");
  auto idle = gpu("cuda", 1, 81559, 81007, "0000:43:00.0");
  Entry twin = busy;  // the same card through an API that cannot tell free memory
  twin.backend = "vulkan";
  twin.api = "vulkan";
  twin.memory.free_bytes.reset();
  auto d = detection_with({busy, idle, twin, cpu()});
  apply_reserve(d, Reserve{});
  EXPECT_EQ(d.entries[0].status, EntryStatus::unavailable);
  EXPECT_EQ(d.entries[0].reason->code, ReasonCode::reserve_exceeds_free);
  EXPECT_EQ(d.entries[0].reason->detail, "reserve 3584 MiB (default) > free 2048 MiB");
  EXPECT_EQ(d.entries[1].status, EntryStatus::ready);
  EXPECT_EQ(d.entries[2].status, EntryStatus::unavailable) << "the twin shares the verdict";
  EXPECT_EQ(d.entries[3].status, EntryStatus::ready) << "the CPU is never refused";
}

TEST(Reserve, UnifiedMemoryComparesAgainstWhatTheGpuCanHave) {
  auto gb10 = gpu("cuda", 0, 122567, 2000, "000f:01:00.0");
  gb10.memory.kind = MemoryKind::unified;
  auto d = detection_with({gb10});
  apply_reserve(d, Reserve{});
  EXPECT_EQ(d.entries[0].reason->detail, "reserve 3584 MiB (default) > host MemAvailable 2000 MiB");

  gb10.memory.free_bytes = 100000ull << 20;
  gb10.memory.working_set_limit_bytes = 1024ull << 20;
  auto limited = detection_with({gb10});
  apply_reserve(limited, Reserve{});
  EXPECT_EQ(limited.entries[0].reason->detail,
            "reserve 3584 MiB (default) > working-set limit 1024 MiB");
}

}  // namespace
}  // namespace hwaccel
