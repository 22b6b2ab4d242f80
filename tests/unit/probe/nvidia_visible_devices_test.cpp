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

// NVIDIA_VISIBLE_DEVICES as the container toolkit reads it (and the k8s device
// plugin writes it: UUIDs by default, a directory with the volume-mounts strategy).
TEST(NvidiaVisibleDevices, TheToolkitsValues) {
  using Kind = NvidiaVisibleDevices::Kind;
  EXPECT_EQ(parse_nvidia_visible_devices("all").kind, Kind::all);
  EXPECT_EQ(parse_nvidia_visible_devices("none").kind, Kind::none);
  // void and "" add nothing; CDI sets void and gives the devices itself.
  EXPECT_EQ(parse_nvidia_visible_devices("void").kind, Kind::nothing_said);
  EXPECT_EQ(parse_nvidia_visible_devices(" ").kind, Kind::nothing_said);
  EXPECT_EQ(parse_nvidia_visible_devices(",").kind, Kind::nothing_said);
  auto list = parse_nvidia_visible_devices(
      "GPU-4b942b7f-033c-bb7f-519c-52081f3ddbea, MIG-3d7a9e7c-2f7b-5e6f-9d22-5a5c8e6f1a20,0:1,3");
  EXPECT_EQ(list.kind, Kind::list);
  EXPECT_EQ(list.tokens,
            (std::vector<std::string>{"GPU-4b942b7f-033c-bb7f-519c-52081f3ddbea",
                                      "MIG-3d7a9e7c-2f7b-5e6f-9d22-5a5c8e6f1a20", "0:1", "3"}));
  auto dir = parse_nvidia_visible_devices("/var/run/nvidia-container-devices");
  EXPECT_EQ(dir.kind, Kind::directory);
  EXPECT_EQ(dir.directory, "/var/run/nvidia-container-devices");
  EXPECT_EQ(parse_nvidia_visible_devices(std::string(5000, ',') + "x").tokens.size(), 1u);
}

}  // namespace
}  // namespace hwaccel
