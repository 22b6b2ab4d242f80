// The CUDA driver's enumeration rule: base order, CUDA_VISIBLE_DEVICES entries
// (indices, UUIDs and their prefixes, MIG UUIDs), the invalid entry that ends the
// list, and MIG mode.
#include "src/registry/cuda_visible.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

CudaCandidate gpu(std::string uuid, std::string bus, int major = 9, unsigned sms = 132) {
  CudaCandidate c;
  c.uuid = std::move(uuid);
  c.bus_id = std::move(bus);
  c.cc_major = major;
  c.multiprocessors = sms;
  return c;
}

std::vector<CudaCandidate> four() {
  return {gpu("GPU-aaaa1111-0000-0000-0000-000000000000", "0000:1b:00.0"),
          gpu("GPU-aaaa2222-0000-0000-0000-000000000000", "0000:43:00.0"),
          gpu("GPU-bbbb0000-0000-0000-0000-000000000000", "0000:52:00.0"),
          gpu("GPU-cccc0000-0000-0000-0000-000000000000", "0000:61:00.0")};
}

using V = std::vector<std::size_t>;

TEST(CudaVisible, UnsetListsEveryGpuInBusOrder) {
  EXPECT_EQ(cuda_enumeration(four(), std::nullopt, std::nullopt), (V{0, 1, 2, 3}));
}

TEST(CudaVisible, EmptyListsNone) {
  EXPECT_EQ(cuda_enumeration(four(), "", std::nullopt), V{});
}

TEST(CudaVisible, IndicesReorder) {
  EXPECT_EQ(cuda_enumeration(four(), "2,1", std::nullopt), (V{2, 1}));
  EXPECT_EQ(cuda_enumeration(four(), " 3 , 0 ", std::nullopt), (V{3, 0}));
}

TEST(CudaVisible, AnInvalidEntryEndsTheList) {
  EXPECT_EQ(cuda_enumeration(four(), "0,2,-1,1", std::nullopt), (V{0, 2}));
  EXPECT_EQ(cuda_enumeration(four(), "1,7,0", std::nullopt), (V{1}));
  EXPECT_EQ(cuda_enumeration(four(), "1,x,0", std::nullopt), (V{1}));
  EXPECT_EQ(cuda_enumeration(four(), "1,1,0", std::nullopt), (V{1}));  // already listed
}

TEST(CudaVisible, UuidsAndUniquePrefixes) {
  EXPECT_EQ(cuda_enumeration(four(), "GPU-cccc0000-0000-0000-0000-000000000000,0", std::nullopt),
            (V{3, 0}));
  EXPECT_EQ(cuda_enumeration(four(), "GPU-bbbb,GPU-aaaa2", std::nullopt), (V{2, 1}));
  EXPECT_EQ(cuda_enumeration(four(), "GPU-BBBB", std::nullopt), (V{2}));      // any case
  EXPECT_EQ(cuda_enumeration(four(), "2,GPU-aaaa,0", std::nullopt), (V{2}));  // ambiguous
  EXPECT_EQ(cuda_enumeration(four(), "GPU-dddd,0", std::nullopt), V{});
}

TEST(CudaVisible, FastestFirstUnlessPciBusOrder) {
  auto mixed = four();
  mixed[2].cc_major = 8;  // an older GPU in the middle of the bus
  EXPECT_EQ(cuda_enumeration(mixed, std::nullopt, std::nullopt), (V{0, 1, 3, 2}));
  EXPECT_EQ(cuda_enumeration(mixed, std::nullopt, "FASTEST_FIRST"), (V{0, 1, 3, 2}));
  EXPECT_EQ(cuda_enumeration(mixed, std::nullopt, "PCI_BUS_ID"), (V{0, 1, 2, 3}));
  // Indices count in the chosen order.
  EXPECT_EQ(cuda_enumeration(mixed, "2", std::nullopt), (V{3}));
  EXPECT_EQ(cuda_enumeration(mixed, "2", "PCI_BUS_ID"), (V{2}));
}

std::vector<CudaCandidate> mig_host() {
  auto devices = four();
  devices[0].mig_enabled = true;
  for (int i = 0; i < 2; ++i) {
    CudaCandidate m =
        gpu("MIG-0000000" + std::to_string(i) + "-0000-0000-0000-000000000000", "0000:1b:00.0");
    m.is_mig = true;
    m.parent = 0;
    devices.push_back(m);
  }
  return devices;
}

TEST(CudaVisible, MigModeGpuGivesItsFirstMigDeviceOnly) {
  EXPECT_EQ(cuda_enumeration(mig_host(), std::nullopt, std::nullopt), (V{4, 1, 2, 3}));
  EXPECT_EQ(cuda_enumeration(mig_host(), "0,1", std::nullopt), (V{4, 1}));
}

TEST(CudaVisible, MigUuidsNameMigDevicesOneAtMost) {
  EXPECT_EQ(cuda_enumeration(mig_host(), "MIG-00000001", std::nullopt), (V{5}));
  EXPECT_EQ(cuda_enumeration(mig_host(), "MIG-00000001,2", std::nullopt), (V{5, 2}));
  EXPECT_EQ(cuda_enumeration(mig_host(), "MIG-00000001,MIG-00000000,2", std::nullopt), (V{5}));
  EXPECT_EQ(cuda_enumeration(mig_host(), "MIG-0000000", std::nullopt), V{});  // ambiguous
}

}  // namespace
}  // namespace hwaccel
