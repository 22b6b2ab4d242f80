// A device we cannot read is not an absent device: when a vendor's probe finds
// none of its functions but a PCI file that could show one cannot be read, it
// says permission-denied (EACCES, EPERM) or probe-failed (ELOOP, EIO) naming
// the file, never no-device. Found by the fault matrix (docs/fault-matrix.md).
#include <gtest/gtest.h>

#include <cerrno>

#include "src/probe/gaudi_probe.h"
#include "src/probe/neuron_probe.h"
#include "src/probe/pci_bus.h"
#include "src/probe/qualcomm_probe.h"
#include "src/probe/tpu_probe.h"
#include "tests/unit/probe/snapshot_builder.h"

namespace hwaccel {
namespace {

using testing::SnapshotBuilder;
const std::string kFn = "/sys/bus/pci/devices/0000:00:05.0";

ProbeResult run(const Probe& probe, SnapshotBuilder& b) {
  SnapshotHost host(b.snapshot);
  return probe.run(host);
}

// A function of `vendor` whose device id may not be read, beside a bridge.
SnapshotBuilder with_unreadable_device_id(const std::string& vendor, int code) {
  SnapshotBuilder b;
  b.pci("0000:00:00.0", "0x8086", "0x1237", "0x060000", "");
  b.pci("0000:00:05.0", vendor, "0x0000", "0x120000", "");
  b.error(kFn + "/device", code);
  return b;
}

TEST(PciUnreadable, DeniedDeviceFileOfTheVendorIsPermissionDenied) {
  auto b = with_unreadable_device_id("0x1ae0", EACCES);
  SnapshotHost host(b.snapshot);
  auto hidden = pci_unreadable_for_vendor(host, 0x1ae0);
  ASSERT_EQ(hidden.size(), 1u);
  EXPECT_EQ(hidden[0].path, kFn + "/device");
  auto reason = pci_unreadable_reason(host, 0x1ae0, "a Google TPU");
  ASSERT_TRUE(reason);
  EXPECT_EQ(reason->code, ReasonCode::permission_denied);
  EXPECT_EQ(reason->detail, kFn +
                                "/device cannot be read (EACCES): a Google TPU there could not "
                                "be identified");
  // Another vendor's probe is not concerned by that function.
  EXPECT_FALSE(pci_unreadable_reason(host, 0x1da3, "an Intel Gaudi"));
}

TEST(PciUnreadable, AnUnreadableVendorFileConcernsEveryVendor) {
  SnapshotBuilder b;
  b.pci("0000:00:05.0", "0x1ae0", "0x0063", "0x120000", "");
  b.error(kFn + "/vendor", EPERM);
  SnapshotHost host(b.snapshot);
  auto reason = pci_unreadable_reason(host, 0x1da3, "an Intel Gaudi");
  ASSERT_TRUE(reason);
  EXPECT_EQ(reason->code, ReasonCode::permission_denied);
  EXPECT_NE(reason->detail.find(kFn + "/vendor cannot be read (EPERM)"), std::string::npos);
}

TEST(PciUnreadable, ALoopIsProbeFailedAndAbsenceIsNothing) {
  auto loop = with_unreadable_device_id("0x1ae0", ELOOP);
  SnapshotHost host(loop.snapshot);
  auto reason = pci_unreadable_reason(host, 0x1ae0, "a Google TPU");
  ASSERT_TRUE(reason);
  EXPECT_EQ(reason->code, ReasonCode::probe_failed);
  EXPECT_NE(reason->detail.find("(ELOOP)"), std::string::npos);

  auto gone = with_unreadable_device_id("0x1ae0", ENOENT);
  SnapshotHost gone_host(gone.snapshot);
  EXPECT_TRUE(pci_unreadable_for_vendor(gone_host, 0x1ae0).empty());
  EXPECT_FALSE(pci_unreadable_reason(gone_host, 0x1ae0, "a Google TPU"));
}

TEST(PciUnreadable, CountsTheOtherUnreadableFiles) {
  auto b = with_unreadable_device_id("0x1ae0", EACCES);
  b.pci("0000:00:06.0", "0x1ae0", "0x0063", "0x120000", "");
  b.error("/sys/bus/pci/devices/0000:00:06.0/device", EACCES);
  SnapshotHost host(b.snapshot);
  auto reason = pci_unreadable_reason(host, 0x1ae0, "a Google TPU");
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->detail.find("(1 more unreadable PCI file)"), std::string::npos);
}

TEST(PciUnreadable, EachSysfsProbeSaysPermissionDeniedNotNoDevice) {
  struct Case {
    const char* vendor;
    const Probe* probe;
    const char* what;
  };
  TpuProbe tpu;
  GaudiProbe gaudi;
  NeuronProbe neuron;
  QualcommProbe qualcomm;
  for (const Case& c :
       {Case{"0x1ae0", &tpu, "a Google TPU"}, Case{"0x1da3", &gaudi, "an Intel Gaudi"},
        Case{"0x1d0f", &neuron, "an AWS Neuron device"},
        Case{"0x17cb", &qualcomm, "a Qualcomm Cloud AI card"}}) {
    SCOPED_TRACE(c.what);
    auto b = with_unreadable_device_id(c.vendor, EACCES);
    auto r = run(*c.probe, b);
    EXPECT_FALSE(r.backend.ready);
    ASSERT_TRUE(r.backend.reason);
    EXPECT_EQ(r.backend.reason->code, ReasonCode::permission_denied);
    EXPECT_NE(r.backend.reason->detail.find(kFn + "/device"), std::string::npos);
    EXPECT_NE(r.backend.reason->detail.find(c.what), std::string::npos);
    EXPECT_TRUE(r.entries.empty());

    // The same host with the file simply absent: no device, as before.
    auto gone = with_unreadable_device_id(c.vendor, ENOENT);
    auto r2 = run(*c.probe, gone);
    ASSERT_TRUE(r2.backend.reason);
    EXPECT_EQ(r2.backend.reason->code, ReasonCode::no_device);
  }
}

TEST(PciUnreadable, NeuronDriverFolderThatCannotBeListedIsNotNoDevice) {
  SnapshotBuilder b;
  b.pci("0000:00:00.0", "0x8086", "0x1237", "0x060000", "");
  b.error("/sys/devices/virtual/neuron_device", EACCES);
  auto r = run(NeuronProbe(), b);
  ASSERT_TRUE(r.backend.reason);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::permission_denied);
  EXPECT_NE(r.backend.reason->detail.find("/sys/devices/virtual/neuron_device cannot be listed"),
            std::string::npos);
}

}  // namespace
}  // namespace hwaccel
