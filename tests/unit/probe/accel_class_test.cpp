#include "src/probe/accel_class.h"

#include <gtest/gtest.h>

#include "tests/unit/probe/snapshot_builder.h"

namespace hwaccel {
namespace {

TEST(AccelClass, LinkTargetsToPciAddresses) {
  EXPECT_EQ(pci_address_of_link("../../../0000:01:00.0"), "0000:01:00.0");  // the kernel's
  EXPECT_EQ(pci_address_of_link("../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/"),
            "0000:01:00.0");
  EXPECT_EQ(pci_address_of_link("../../../0000:C5:00.0"), "0000:c5:00.0");
  EXPECT_EQ(pci_address_of_link("../../../platform/amdxdna.0"), "");
  EXPECT_EQ(pci_address_of_link(""), "");
}

TEST(AccelClass, ScanGivesEachDeviceItsFunctionAndDriver) {
  testing::SnapshotBuilder b;
  b.pci("0000:01:00.0", "0x17cb", "0xa100", "0x120000", "qaic");
  b.link("/sys/class/accel/accel0/device", "../../../bus/pci/devices/0000:01:00.0");
  b.file("/sys/class/accel/accel1/uevent", "");  // no device link
  SnapshotHost host(b.snapshot);
  auto devices = scan_accel_class(host);
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0].name, "accel0");
  EXPECT_EQ(devices[0].pci_address, "0000:01:00.0");
  EXPECT_EQ(devices[0].driver, "qaic");
  EXPECT_EQ(devices[1].pci_address, "");
  EXPECT_EQ(devices[1].driver, "");
}

TEST(AccelClass, NoClassFolderIsNoDevice) {
  testing::SnapshotBuilder b;
  SnapshotHost host(b.snapshot);
  EXPECT_TRUE(scan_accel_class(host).empty());
}

}  // namespace
}  // namespace hwaccel
