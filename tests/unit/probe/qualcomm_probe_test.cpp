#include "src/probe/qualcomm_probe.h"

#include <gtest/gtest.h>

#include "tests/unit/probe/snapshot_builder.h"

namespace hwaccel {
namespace {

using testing::SnapshotBuilder;

ProbeResult probe(SnapshotBuilder& b) {
  SnapshotHost host(b.snapshot);
  return QualcommProbe().run(host);
}

void card(SnapshotBuilder& b, const std::string& driver = "qaic") {
  b.pci("0000:01:00.0", "0x17cb", "0xa100", "0x120000", driver);
  if (driver == "qaic") {
    // Hand-built: the class link points at the bus folder (the kernel's goes through
    // /sys/devices), so that device/driver resolves inside the snapshot.
    b.link("/sys/class/accel/accel0/device", "../../../bus/pci/devices/0000:01:00.0");
    b.node("/dev/accel/accel0");
  }
}

const char* kOne =
    "Number of devices: 1\nQID 0\n\tStatus:Ready\n\tPCI Address:0000:01:00.0\n"
    "\tPCI Info:Processing accelerators Qualcomm Device a100\n\tDram Total:32692 MB\n"
    "\tDram Free:30000 MB\n\tNsp Total:16\n\tNsp Free:16\n";

TEST(QualcommProbe, AWiFiCardIsNoDevice) {
  SnapshotBuilder b;
  b.pci("0000:02:00.0", "0x17cb", "0x1101", "0x028000", "ath11k_pci");  // QCA6390 Wi-Fi
  SnapshotHost host(b.snapshot);
  auto r = QualcommProbe().run(host);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::no_device);
  EXPECT_TRUE(host.misses().empty());
}

TEST(QualcommProbe, ReadyFromQaicUtil) {
  SnapshotBuilder b;
  card(b);
  b.tool(qaic_util_argv(), 0, kOne);
  auto r = probe(b);
  ASSERT_TRUE(r.backend.ready);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].name, "Qualcomm Cloud AI 100 (16 NSPs)");
  EXPECT_EQ(r.entries[0].memory.total_bytes, 32692ull << 20);
  EXPECT_EQ(r.entries[0].memory.free_bytes, 30000ull << 20);
  EXPECT_EQ(r.entries[0].pci_device_id, 0xa100);
}

TEST(QualcommProbe, WithoutTheSdkTheDriverDecides) {
  SnapshotBuilder b;
  card(b);
  b.tool_outcome(qaic_util_argv(), ToolOutcome::not_found);
  auto r = probe(b);
  ASSERT_TRUE(r.backend.ready);
  EXPECT_EQ(r.entries[0].name, "Qualcomm Cloud AI 100");
  EXPECT_FALSE(r.entries[0].memory.total_bytes);
  EXPECT_FALSE(r.warnings.empty());
}

TEST(QualcommProbe, NoDriverIsDriverNotFound) {
  SnapshotBuilder b;
  card(b, "");
  b.tool_outcome(qaic_util_argv(), ToolOutcome::not_found);
  auto r = probe(b);
  EXPECT_FALSE(r.backend.ready);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::driver_not_found);
}

TEST(QualcommProbe, UnopenableNodeIsPermissionDenied) {
  SnapshotBuilder b;
  card(b);
  b.error("/dev/accel/accel0", EACCES);
  b.tool_outcome(qaic_util_argv(), ToolOutcome::not_found);
  auto r = probe(b);
  EXPECT_EQ(r.entries[0].reason->code, ReasonCode::permission_denied);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::permission_denied);
}

TEST(QualcommProbe, AFailingToolWithoutTheDriverIsDriverNotFound) {
  SnapshotBuilder b;
  card(b, "");
  b.tool(qaic_util_argv(), 1, "", "Failed to open device\n");
  auto r = probe(b);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::driver_not_found);
}

TEST(QualcommProbe, AFailingToolWithTheDriverIsAProbeFailure) {
  SnapshotBuilder b;
  card(b);
  b.tool(qaic_util_argv(), 1, "", "Failed to open device\n");
  auto r = probe(b);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::probe_failed);
  EXPECT_NE(r.backend.reason->detail.find("Failed to open device"), std::string::npos);
  EXPECT_EQ(r.entries[0].reason->code, ReasonCode::probe_failed);
}

TEST(QualcommProbe, ACardInErrorIsUnavailable) {
  SnapshotBuilder b;
  card(b);
  b.tool(qaic_util_argv(), 0, "QID 0\n\tStatus:Error\n\tPCI Address:0000:01:00.0\n");
  auto r = probe(b);
  EXPECT_FALSE(r.backend.ready);
  EXPECT_EQ(r.entries[0].reason->code, ReasonCode::probe_failed);
}

}  // namespace
}  // namespace hwaccel
