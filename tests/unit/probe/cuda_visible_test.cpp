#include "src/probe/cuda_visible.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

using Refs = std::vector<CudaDeviceRef>;
const std::optional<std::string> kUnset;

CudaGpu gpu(std::string bus, std::string uuid, std::uint64_t speed = 900) {
  CudaGpu g;
  g.pci_bus_id = std::move(bus);
  g.uuid = std::move(uuid);
  g.speed = speed;
  return g;
}

// Four identical GPUs in PCI order.
std::vector<CudaGpu> four() {
  return {gpu("0000:18:00.0", "GPU-aaaa0000"), gpu("0000:2a:00.0", "GPU-bbbb1111"),
          gpu("0000:3b:00.0", "GPU-bbbb2222"), gpu("0000:5d:00.0", "GPU-dddd3333")};
}

Refs whole(std::initializer_list<std::size_t> gs) {
  Refs out;
  for (auto g : gs) out.push_back({g, std::nullopt});
  return out;
}

TEST(CudaVisible, UnsetShowsEveryGpuInPciOrderWhenAllAreAlike) {
  auto e = cuda_enumerate(four(), kUnset, kUnset);
  EXPECT_EQ(e.devices, whole({0, 1, 2, 3}));
  EXPECT_EQ(e.problem, "");
}

TEST(CudaVisible, IndicesRenumberFromZero) {
  // The case: 2,3 are CUDA ordinals 0 and 1.
  auto e = cuda_enumerate(four(), "2,3", kUnset);
  EXPECT_EQ(e.devices, whole({2, 3}));
  EXPECT_EQ(cuda_enumerate(four(), "3, 1", kUnset).devices, whole({3, 1}));
}

TEST(CudaVisible, EmptyValueShowsNothing) {
  EXPECT_TRUE(cuda_enumerate(four(), "", kUnset).devices.empty());
  EXPECT_TRUE(cuda_enumerate(four(), "  ", kUnset).devices.empty());
}

TEST(CudaVisible, AnInvalidEntryEndsTheList) {
  // The CUDA programming guide's example: 0,2,-1,1 shows 0 and 2.
  auto e = cuda_enumerate(four(), "0,2,-1,1", kUnset);
  EXPECT_EQ(e.devices, whole({0, 2}));
  EXPECT_EQ(e.stopped_at, "-1");
  EXPECT_NE(e.problem.find("every entry after it"), std::string::npos);
  EXPECT_EQ(cuda_enumerate(four(), "1,7,0", kUnset).devices, whole({1}));
  EXPECT_EQ(cuda_enumerate(four(), "1,,0", kUnset).devices, whole({1}));
  EXPECT_EQ(cuda_enumerate(four(), "foo,0", kUnset).devices, whole({}));
}

TEST(CudaVisible, IndicesAreReadLikeStrtoul) {
  // PyTorch's note from driver 510: "1gpu2,2ampere" is "1,2".
  EXPECT_EQ(cuda_enumerate(four(), "1gpu2,2ampere", kUnset).devices, whole({1, 2}));
  EXPECT_EQ(cuda_enumerate(four(), "+3", kUnset).devices, whole({3}));
}

TEST(CudaVisible, ADeviceNamedTwiceShowsNothing) {
  auto e = cuda_enumerate(four(), "1,0,1", kUnset);
  EXPECT_TRUE(e.devices.empty());
  EXPECT_NE(e.problem.find("named before"), std::string::npos);
  // Twice by different spellings is still twice.
  EXPECT_TRUE(cuda_enumerate(four(), "0,GPU-aaaa", kUnset).devices.empty());
}

TEST(CudaVisible, UuidPrefixesMustBeUnique) {
  EXPECT_EQ(cuda_enumerate(four(), "GPU-dddd,GPU-aaaa0000", kUnset).devices, whole({3, 0}));
  EXPECT_EQ(cuda_enumerate(four(), "GPU-AAAA", kUnset).devices, whole({0}));  // any case
  auto e = cuda_enumerate(four(), "0,GPU-bbbb,2", kUnset);  // two GPUs start with GPU-bbbb
  EXPECT_EQ(e.devices, whole({0}));
  EXPECT_NE(e.problem.find("more than one"), std::string::npos);
  EXPECT_EQ(cuda_enumerate(four(), "GPU-ffff", kUnset).devices, whole({}));
  EXPECT_EQ(cuda_enumerate(four(), "GPU-", kUnset).devices, whole({}));
}

TEST(CudaVisible, PciBusIdOrderAndFastestFirst) {
  auto gpus = four();
  gpus[2].speed = cuda_speed_key(10, 0);  // a faster GPU third on the bus
  EXPECT_EQ(cuda_enumerate(gpus, kUnset, kUnset).devices, whole({2, 0, 1, 3}));
  EXPECT_EQ(cuda_enumerate(gpus, kUnset, "FASTEST_FIRST").devices, whole({2, 0, 1, 3}));
  EXPECT_EQ(cuda_enumerate(gpus, kUnset, "PCI_BUS_ID").devices, whole({0, 1, 2, 3}));
  // Indices count in that order: under FASTEST_FIRST, 0 is the fast one.
  EXPECT_EQ(cuda_enumerate(gpus, "0", kUnset).devices, whole({2}));
  EXPECT_EQ(cuda_enumerate(gpus, "0", "PCI_BUS_ID").devices, whole({0}));
  // The input order does not matter, only bus ids and speeds.
  std::vector<CudaGpu> shuffled = {gpus[3], gpus[1], gpus[0], gpus[2]};
  EXPECT_EQ(cuda_enumerate(shuffled, kUnset, "PCI_BUS_ID").devices, whole({2, 1, 3, 0}));
}

TEST(CudaVisible, SpeedKeyFromComputeClass) {
  EXPECT_EQ(cuda_speed_key("sm_90"), cuda_speed_key(9, 0));
  EXPECT_EQ(cuda_speed_key("sm_100a"), cuda_speed_key(10, 0));
  EXPECT_GT(cuda_speed_key("sm_90"), cuda_speed_key("sm_89"));
  EXPECT_GT(cuda_speed_key("sm_120"), cuda_speed_key("sm_100"));
  EXPECT_EQ(cuda_speed_key("avx512"), 0u);
  EXPECT_EQ(cuda_speed_key(""), 0u);
}

// GPU 0 whole; GPU 1 MIG-enabled with two MIG devices; GPU 2 MIG-enabled, none.
std::vector<CudaGpu> mixed() {
  auto gpus = four();
  gpus.pop_back();
  gpus[1].mig_enabled = true;
  gpus[1].mig = {{"MIG-1111aaaa", 2, 0}, {"MIG-1111bbbb", 3, 0}};
  gpus[2].mig_enabled = true;
  return gpus;
}

TEST(CudaVisible, MigDevicesAreNamedByMigUuid) {
  auto gpus = mixed();
  EXPECT_EQ(cuda_enumerate(gpus, "MIG-1111b", kUnset).devices, (Refs{{1, 1}}));
  EXPECT_EQ(cuda_enumerate(gpus, "MIG-GPU-bbbb1111/3/0", kUnset).devices, (Refs{{1, 1}}));
  EXPECT_EQ(cuda_enumerate(gpus, "MIG-GPU-BBBB1111/2/0", kUnset).devices, (Refs{{1, 0}}));
  EXPECT_EQ(cuda_enumerate(gpus, "MIG-GPU-bbbb1111/9/0", kUnset).devices, Refs{});
  EXPECT_EQ(cuda_enumerate(gpus, "MIG-GPU-bbbb/2/0", kUnset).devices, Refs{});  // full UUID
  EXPECT_EQ(cuda_enumerate(gpus, "MIG-1111", kUnset).devices, Refs{});          // ambiguous
}

TEST(CudaVisible, OneMigDevicePerProcessAndNoneBesideAWholeGpu) {
  auto gpus = mixed();
  auto two = cuda_enumerate(gpus, "MIG-1111bbbb,MIG-1111aaaa", kUnset);
  EXPECT_EQ(two.devices, (Refs{{1, 1}}));
  EXPECT_EQ(two.problem, "CUDA shows one MIG device per process");
  auto beside = cuda_enumerate(gpus, "MIG-1111aaaa,0", kUnset);
  EXPECT_EQ(beside.devices, whole({0}));
  EXPECT_EQ(beside.problem, "CUDA shows no MIG device beside a whole GPU");
  // Unset: the whole GPU wins.
  EXPECT_EQ(cuda_enumerate(gpus, kUnset, kUnset).devices, whole({0}));
}

TEST(CudaVisible, AMigEnabledGpuStandsForItsFirstMigDevice) {
  auto gpus = mixed();
  EXPECT_EQ(cuda_enumerate(gpus, "1", kUnset).devices, (Refs{{1, 0}}));
  EXPECT_EQ(cuda_enumerate(gpus, "GPU-bbbb1111", kUnset).devices, (Refs{{1, 0}}));
  EXPECT_EQ(cuda_enumerate(gpus, "2", kUnset).devices, Refs{});  // no MIG device: nothing
  EXPECT_EQ(cuda_enumerate(gpus, "2,0", kUnset).devices, whole({0}));
  gpus.erase(gpus.begin());  // MIG-only host, variable unset: the first MIG device
  EXPECT_EQ(cuda_enumerate(gpus, kUnset, kUnset).devices, (Refs{{0, 0}}));
}

TEST(CudaVisible, TheTokenThatNamesADevice) {
  auto gpus = mixed();
  EXPECT_EQ(cuda_visible_token(gpus, {0, std::nullopt}), "GPU-aaaa0000");
  EXPECT_EQ(cuda_visible_token(gpus, {1, std::size_t{1}}), "MIG-1111bbbb");
  gpus[1].mig[1].uuid.clear();  // before R470: the GPU UUID and the instance ids
  EXPECT_EQ(cuda_visible_token(gpus, {1, std::size_t{1}}), "MIG-GPU-bbbb1111/3/0");
  EXPECT_EQ(cuda_visible_token(gpus, {9, std::nullopt}), "");
}

TEST(CudaVisible, HostileValuesAreTotal) {
  auto gpus = mixed();
  for (const char* value : {",,,", "99999999999999999999999", "MIG-", "MIG-GPU-", "MIG-GPU-//",
                            "GPU-\xff\xfe", "0,\n1", "\x1b[31m0", "-0"})
    (void)cuda_enumerate(gpus, std::string(value), std::string(value));
  EXPECT_TRUE(cuda_enumerate({}, kUnset, kUnset).devices.empty());
  EXPECT_TRUE(cuda_enumerate({}, "0", kUnset).devices.empty());
}

}  // namespace
}  // namespace hwaccel
