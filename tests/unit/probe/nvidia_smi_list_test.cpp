#include "src/probe/nvidia_smi_list.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

TEST(NvidiaSmiList, GpusAndMigDevices) {
  auto list = parse_nvidia_smi_list(
      "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-00000000-0000-0000-0000-000000000000)\n"
      "  MIG 3g.40gb     Device  0: (UUID: MIG-00000000-0000-0000-0000-000000000000)\n"
      "  MIG 1g.10gb     Device  1: (UUID: MIG-00000001-0000-0000-0000-000000000001)\n"
      "GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-11111111-0000-0000-0000-000000000000)\n");
  EXPECT_TRUE(list.problems.empty());
  ASSERT_EQ(list.gpus.size(), 2u);
  EXPECT_EQ(list.gpus[0].index, 0);
  EXPECT_EQ(list.gpus[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(list.gpus[0].uuid, "GPU-00000000-0000-0000-0000-000000000000");
  ASSERT_EQ(list.gpus[0].mig_devices.size(), 2u);
  EXPECT_EQ(list.gpus[0].mig_devices[0].profile, "3g.40gb");
  EXPECT_EQ(list.gpus[0].mig_devices[0].device, 0);
  EXPECT_EQ(list.gpus[0].mig_devices[1].profile, "1g.10gb");
  EXPECT_EQ(list.gpus[0].mig_devices[1].device, 1);
  EXPECT_EQ(list.gpus[0].mig_devices[1].uuid, "MIG-00000001-0000-0000-0000-000000000001");
  EXPECT_EQ(list.gpus[1].index, 1);
  EXPECT_TRUE(list.gpus[1].mig_devices.empty());
}

TEST(NvidiaSmiList, OldDriverMigUuidAndCrlf) {
  auto list = parse_nvidia_smi_list(
      "GPU 0: A100-SXM4-40GB (UUID: GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77)\r\n"
      "  MIG 1g.5gb Device 0: (UUID: MIG-GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77/7/0)\r\n");
  ASSERT_EQ(list.gpus.size(), 1u);
  ASSERT_EQ(list.gpus[0].mig_devices.size(), 1u);
  EXPECT_EQ(list.gpus[0].mig_devices[0].uuid, "MIG-GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77/7/0");
  EXPECT_EQ(list.gpus[0].mig_devices[0].profile, "1g.5gb");
}

TEST(NvidiaSmiList, GarbageIsNotedByLineNumberNeverQuoted) {
  auto list = parse_nvidia_smi_list(
      "  MIG 1g.10gb Device 0: (UUID: MIG-x)\nindex, uuid\nGPU x: broken\n\x1b[1m\xff\xfe\n");
  EXPECT_TRUE(list.gpus.empty());
  ASSERT_EQ(list.problems.size(), 4u);
  EXPECT_EQ(list.problems[0], "line 1 is a MIG device before any GPU; skipped");
  EXPECT_EQ(list.problems[1], "line 2 is neither a GPU nor a MIG device; skipped");
  EXPECT_TRUE(parse_nvidia_smi_list("").gpus.empty());
}

TEST(NvidiaSmiList, ProfileMemoryIsTheGbInTheName) {
  EXPECT_EQ(mig_profile_memory_bytes("3g.40gb"), 40'000'000'000ull);
  EXPECT_EQ(mig_profile_memory_bytes("1g.10gb+me"), 10'000'000'000ull);
  EXPECT_EQ(mig_profile_memory_bytes("1c.3g.40gb"), 40'000'000'000ull);
  EXPECT_EQ(mig_profile_memory_bytes("1g.5gb"), 5'000'000'000ull);
  EXPECT_FALSE(mig_profile_memory_bytes("3g"));
  EXPECT_FALSE(mig_profile_memory_bytes(""));
  EXPECT_FALSE(mig_profile_memory_bytes("1g.gb"));
  EXPECT_FALSE(mig_profile_memory_bytes("1g.99999999999999999999gb"));
}

}  // namespace
}  // namespace hwaccel
