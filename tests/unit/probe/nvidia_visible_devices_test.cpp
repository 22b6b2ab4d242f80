#include "src/probe/nvidia_visible_devices.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

TEST(CudaVisibleDevices, IndicesAndUuids) {
  auto v = parse_cuda_visible_devices("1, 0,GPU-8f6e,MIG-4a1b");
  EXPECT_FALSE(v.stopped);
  ASSERT_EQ(v.tokens.size(), 4u);
  EXPECT_TRUE(v.tokens[0].is_index);
  EXPECT_EQ(v.tokens[0].index, 1);
  EXPECT_EQ(v.tokens[1].index, 0);
  EXPECT_FALSE(v.tokens[2].is_index);
  EXPECT_EQ(v.tokens[2].uuid, "GPU-8f6e");
  EXPECT_EQ(v.tokens[3].uuid, "MIG-4a1b");
}

TEST(CudaVisibleDevices, ParsingStopsAtTheFirstInvalidToken) {
  auto v = parse_cuda_visible_devices("0,-1,1");
  ASSERT_EQ(v.tokens.size(), 1u);
  EXPECT_TRUE(v.stopped);
  EXPECT_EQ(v.stopped_at, "-1");
  EXPECT_EQ(parse_cuda_visible_devices("foo,0").tokens.size(), 0u);
  EXPECT_EQ(parse_cuda_visible_devices("0,,1").tokens.size(), 1u);
}

TEST(CudaVisibleDevices, EmptyHidesEverything) {
  auto v = parse_cuda_visible_devices("");
  EXPECT_TRUE(v.tokens.empty());
  EXPECT_FALSE(v.stopped);
  EXPECT_TRUE(parse_cuda_visible_devices("  ").tokens.empty());
}

}  // namespace
}  // namespace hwaccel
