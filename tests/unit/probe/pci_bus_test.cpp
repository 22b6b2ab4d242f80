#include "src/probe/pci_bus.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <map>
#include <string>

#include "src/host/findings.h"

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

// Counts the reads of each path; keeps findings where asked to, as a snapshot does.
class CountingHost : public testing::FakeHost {
 public:
  explicit CountingHost(bool keeps) : keeps_(keeps) {}
  Result<std::string> read(std::string_view path) override {
    ++reads[std::string(path)];
    return FakeHost::read(path);
  }
  Findings* findings() override { return keeps_ ? &findings_ : nullptr; }
  std::map<std::string, int> reads;

 private:
  bool keeps_;
  Findings findings_;
};

void fill_bus(testing::FakeHost& host) {
  const std::string gpu = "/sys/bus/pci/devices/0000:1b:00.0";
  host.files[gpu + "/vendor"] = "0x10de\n";
  host.files[gpu + "/device"] = "0x2330\n";
  const std::string nic = "/sys/bus/pci/devices/0000:1a:00.0";
  host.files[nic + "/vendor"] = "0x15b3\n";
  host.files[nic + "/device"] = "0x1021\n";
  const std::string hidden = "/sys/bus/pci/devices/0000:1c:00.0";
  host.files[hidden + "/device"] = "0x0b73\n";
  host.errors[hidden + "/vendor"] = EACCES;
}

// The backends walk the bus for their vendor's devices: where the host keeps
// findings, each function's vendor file is read once for all of them, and every
// walk still gets its own answer (the unreadable function included).
TEST(PciBus, AHostThatKeepsFindingsReadsEachVendorFileOnce) {
  CountingHost host(true);
  fill_bus(host);
  for (int round = 0; round < 3; ++round) {
    auto nvidia = pci_devices_of_vendor(host, 0x10de);
    ASSERT_EQ(nvidia.size(), 1u);
    EXPECT_EQ(nvidia[0].device, 0x2330);
    auto mellanox = pci_devices_of_vendor(host, 0x15b3);
    ASSERT_EQ(mellanox.size(), 1u);
    EXPECT_EQ(mellanox[0].address, "0000:1a:00.0");
    EXPECT_TRUE(pci_devices_of_vendor(host, 0x1002).empty());
    auto hidden = pci_unreadable_for_vendor(host, 0x1002);
    ASSERT_EQ(hidden.size(), 1u);
    EXPECT_EQ(hidden[0].path, "/sys/bus/pci/devices/0000:1c:00.0/vendor");
    EXPECT_EQ(hidden[0].error.code, EACCES);
  }
  EXPECT_EQ(host.reads["/sys/bus/pci/devices/0000:1b:00.0/vendor"], 1);
  EXPECT_EQ(host.reads["/sys/bus/pci/devices/0000:1a:00.0/vendor"], 1);
  EXPECT_EQ(host.reads["/sys/bus/pci/devices/0000:1c:00.0/vendor"], 1);
}

// A live machine keeps none: a device that comes or goes between two walks is
// seen by the second.
TEST(PciBus, AMachineIsAskedAgainOnEachWalk) {
  CountingHost host(false);
  fill_bus(host);
  EXPECT_EQ(pci_devices_of_vendor(host, 0x10de).size(), 1u);
  host.files["/sys/bus/pci/devices/0000:1a:00.0/vendor"] = "0x10de\n";
  EXPECT_EQ(pci_devices_of_vendor(host, 0x10de).size(), 2u);
  EXPECT_EQ(host.reads["/sys/bus/pci/devices/0000:1b:00.0/vendor"], 2);
}

}  // namespace
}  // namespace hwaccel
