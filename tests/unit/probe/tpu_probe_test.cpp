#include "src/probe/tpu_probe.h"

#include <gtest/gtest.h>

#include "src/catalog/google_tpu_ids.h"
#include "tests/unit/probe/snapshot_builder.h"

namespace hwaccel {
namespace {

using testing::SnapshotBuilder;
constexpr std::uint64_t kGiB = 1ull << 30;

ProbeResult probe(SnapshotBuilder& b) {
  SnapshotHost host(b.snapshot);
  return TpuProbe().run(host);
}

// A v5e chip as on a ct5lp-hightpu VM: vfio-pci and IOMMU group N.
void v5e(SnapshotBuilder& b, const std::string& address, int group) {
  b.pci(address, "0x1ae0", "0x0063", "0x120000", "vfio-pci");
  b.link("/sys/bus/pci/devices/" + address + "/iommu_group",
         "../../../../kernel/iommu_groups/" + std::to_string(group));
  b.node("/dev/vfio/" + std::to_string(group));
}

TEST(TpuCatalogue, KnowsTheGenerationsTpuInfoKnows) {
  EXPECT_EQ(find_tpu_generation(0x005e, std::nullopt)->name, "v4");
  EXPECT_EQ(find_tpu_generation(0x0063, std::nullopt)->hbm_gib, 16u);
  EXPECT_EQ(find_tpu_generation(0x0062, std::nullopt)->hbm_gib, 95u);
  EXPECT_TRUE(find_tpu_generation(0x006f, std::nullopt)->vfio);
  EXPECT_FALSE(find_tpu_generation(0x005e, std::nullopt)->vfio);
  EXPECT_EQ(find_tpu_generation(0x0027, std::uint16_t(0x004f))->name, "v3");
  EXPECT_FALSE(find_tpu_generation(0x0027, std::nullopt));  // v2 or v3: cannot tell
  EXPECT_FALSE(find_tpu_generation(0x0042, std::nullopt));  // gVNIC
}

TEST(TpuProbe, NoGoogleFunctionIsNoDevice) {
  SnapshotBuilder b;
  auto r = probe(b);
  EXPECT_FALSE(r.backend.ready);
  ASSERT_TRUE(r.backend.reason);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::no_device);
  EXPECT_TRUE(r.entries.empty());
}

TEST(TpuProbe, VfioChipsAreReadyWithCatalogueMemory) {
  SnapshotBuilder b;
  v5e(b, "0000:00:05.0", 0);
  v5e(b, "0000:00:06.0", 1);
  b.env("TPU_ACCELERATOR_TYPE", "v5litepod-8");
  auto r = probe(b);
  ASSERT_TRUE(r.backend.ready);
  ASSERT_EQ(r.entries.size(), 2u);
  const Entry& e = r.entries[1];
  EXPECT_EQ(e.name, "Google TPU v5e");
  EXPECT_EQ(e.api, "vfio");
  EXPECT_EQ(e.type, DeviceType::tpu);
  EXPECT_EQ(e.physical_id, "pci:0000:00:06.0");
  EXPECT_EQ(e.memory.total_bytes, 16 * kGiB);
  EXPECT_EQ(e.compute_class, "tpu_v5e");
  EXPECT_NE(std::find(e.provenance.begin(), e.provenance.end(), "file:/dev/vfio/1 (stat)"),
            e.provenance.end());
  EXPECT_NE(
      std::find(e.provenance.begin(), e.provenance.end(), "env:TPU_ACCELERATOR_TYPE=v5litepod-8"),
      e.provenance.end());
}

TEST(TpuProbe, AVfioDeviceOfAnotherVendorIsNotATpu) {
  SnapshotBuilder b;
  // A BlueField-2 NIC handed to a guest: Mellanox, vfio-pci, not a TPU.
  b.pci("0000:17:00.0", "0x15b3", "0xa2d6", "0x020000", "vfio-pci");
  b.link("/sys/bus/pci/devices/0000:17:00.0/iommu_group", "../../../../kernel/iommu_groups/4");
  b.node("/dev/vfio/4");
  auto r = probe(b);
  EXPECT_TRUE(r.entries.empty());
  EXPECT_EQ(r.backend.reason->code, ReasonCode::no_device);
}

TEST(TpuProbe, OtherGoogleFunctionsAreSkipped) {
  SnapshotBuilder b;
  b.pci("0000:00:04.0", "0x1ae0", "0x0042", "0x020000", "gve");  // gVNIC
  v5e(b, "0000:00:05.0", 0);
  auto r = probe(b);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].pci_bus_id, "0000:00:05.0");
}

TEST(TpuProbe, NoDriverBoundIsDriverNotFound) {
  SnapshotBuilder b;
  b.pci("0000:00:05.0", "0x1ae0", "0x006f", "0x120000", "");
  auto r = probe(b);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].status, EntryStatus::unavailable);
  EXPECT_EQ(r.entries[0].reason->code, ReasonCode::driver_not_found);
  EXPECT_FALSE(r.backend.ready);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::driver_not_found);
}

TEST(TpuProbe, UnreadableVfioNodeIsPermissionDenied) {
  SnapshotBuilder b;
  v5e(b, "0000:00:05.0", 0);
  b.error("/dev/vfio/0", EACCES);
  auto r = probe(b);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].reason->code, ReasonCode::permission_denied);
}

TEST(TpuProbe, ANodeThisUserMayNotOpenIsPermissionDenied) {
  SnapshotBuilder b;
  v5e(b, "0000:00:05.0", 0);
  b.tool({"test", "-r", "/dev/vfio/0", "-a", "-w", "/dev/vfio/0"}, 1, "");
  auto r = probe(b);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].reason->code, ReasonCode::permission_denied);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::permission_denied);
}

TEST(TpuProbe, AnOpenableNodeIsReady) {
  SnapshotBuilder b;
  v5e(b, "0000:00:05.0", 0);
  b.tool({"test", "-r", "/dev/vfio/0", "-a", "-w", "/dev/vfio/0"}, 0, "");
  auto r = probe(b);
  EXPECT_TRUE(r.backend.ready);
  EXPECT_EQ(r.entries[0].provenance.back(), "tool:test -r /dev/vfio/0 -a -w /dev/vfio/0");
}

TEST(TpuProbe, MissingIommuGroupIsAProbeFailure) {
  SnapshotBuilder b;
  b.pci("0000:00:05.0", "0x1ae0", "0x0063", "0x120000", "vfio-pci");
  auto r = probe(b);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].reason->code, ReasonCode::probe_failed);
}

TEST(TpuProbe, V4UsesTheKernelDriverAndItsAccelNode) {
  SnapshotBuilder b;
  b.pci("0000:00:04.0", "0x1ae0", "0x005e", "0x120000", "tpu_v4");
  b.link("/sys/class/accel/accel0/device", "../../../bus/pci/devices/0000:00:04.0");
  b.node("/dev/accel0");
  b.file("/sys/module/tpu_v4/version", "1.0.0\n");
  auto r = probe(b);
  ASSERT_TRUE(r.backend.ready);
  const Entry& e = r.entries[0];
  EXPECT_EQ(e.api, "accel");
  EXPECT_EQ(e.driver_version, "1.0.0");
  EXPECT_EQ(e.memory.total_bytes, 32 * kGiB);
  EXPECT_NE(std::find(e.provenance.begin(), e.provenance.end(), "file:/dev/accel0 (stat)"),
            e.provenance.end());
}

TEST(TpuProbe, V5eBoundToSomethingElseIsNotUsable) {
  SnapshotBuilder b;
  b.pci("0000:00:05.0", "0x1ae0", "0x0063", "0x120000", "pci-stub");
  auto r = probe(b);
  EXPECT_EQ(r.entries[0].reason->code, ReasonCode::driver_not_found);
}

}  // namespace
}  // namespace hwaccel
