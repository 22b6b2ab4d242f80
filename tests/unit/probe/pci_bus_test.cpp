#include "src/probe/pci_bus.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

TEST(PciBus, ParsesSysfsAttributeFormats) {
  EXPECT_EQ(parse_sysfs_hex("0x10de\n"), 0x10deu);
  EXPECT_EQ(parse_sysfs_hex("0x030200\n"), 0x030200u);
  EXPECT_FALSE(parse_sysfs_hex("garbage"));
  EXPECT_FALSE(parse_sysfs_hex(""));
  EXPECT_EQ(parse_sysfs_numa_node("1\n"), 1);
  EXPECT_FALSE(parse_sysfs_numa_node("-1\n"));
  EXPECT_FALSE(parse_sysfs_numa_node("x"));
}

TEST(PciBus, ScansDevicesWithTheirDriverAndClass) {
  testing::FakeHost host;
  const std::string gpu = "/sys/bus/pci/devices/0000:1b:00.0";
  host.files[gpu + "/vendor"] = "0x10de\n";
  host.files[gpu + "/device"] = "0x2330\n";
  host.files[gpu + "/class"] = "0x030200\n";
  host.files[gpu + "/numa_node"] = "0\n";
  const std::string nic = "/sys/bus/pci/devices/0000:1a:00.0";
  host.files[nic + "/vendor"] = "0x15b3\n";
  host.files[nic + "/device"] = "0x1021\n";
  host.files[nic + "/class"] = "0x020700\n";
  auto all = scan_pci_bus(host);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].address, "0000:1a:00.0");
  EXPECT_FALSE(all[0].is_display());
  EXPECT_EQ(all[1].device, 0x2330);
  EXPECT_TRUE(all[1].is_display());
  EXPECT_EQ(all[1].numa_node, 0);
  EXPECT_EQ(all[1].driver, "");  // FakeHost has no links: no driver bound
  auto nvidia = pci_devices_of_vendor(host, 0x10de);
  ASSERT_EQ(nvidia.size(), 1u);
  EXPECT_EQ(nvidia[0].address, "0000:1b:00.0");
}

TEST(PciBus, NoBusIsAnEmptyList) {
  testing::FakeHost host;
  EXPECT_TRUE(scan_pci_bus(host).empty());
}

}  // namespace
}  // namespace hwaccel
