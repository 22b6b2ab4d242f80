#include "src/system/pcie_link.h"

#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel {
namespace {

TEST(PcieLink, ParsesSpeedsOldAndNew) {
  EXPECT_EQ(parse_pcie_link_speed("16.0 GT/s PCIe\n"), 16.0);
  EXPECT_EQ(parse_pcie_link_speed("32.0 GT/s PCIe\n"), 32.0);
  EXPECT_EQ(parse_pcie_link_speed("2.5 GT/s PCIe\n"), 2.5);
  EXPECT_EQ(parse_pcie_link_speed("8 GT/s\n"), 8.0);  // kernels before 4.19
  EXPECT_EQ(parse_pcie_link_speed("5 GT/s"), 5.0);
  EXPECT_EQ(parse_pcie_link_speed("Unknown\n"), std::nullopt);
  EXPECT_EQ(parse_pcie_link_speed("Unknown speed\n"), std::nullopt);
  EXPECT_EQ(parse_pcie_link_speed(""), std::nullopt);
  EXPECT_EQ(parse_pcie_link_speed("16.0 Gb/s"), std::nullopt);
  EXPECT_EQ(parse_pcie_link_speed("1.2.3 GT/s"), std::nullopt);
}

TEST(PcieLink, ParsesWidths) {
  EXPECT_EQ(parse_pcie_link_width("16\n"), 16);
  EXPECT_EQ(parse_pcie_link_width("4"), 4);
  EXPECT_EQ(parse_pcie_link_width("0\n"), std::nullopt);  // link down
  EXPECT_EQ(parse_pcie_link_width("64"), std::nullopt);
  EXPECT_EQ(parse_pcie_link_width("x16"), std::nullopt);
}

TEST(PcieLink, BandwidthUsesTheGenerationsEncoding) {
  EXPECT_EQ(pcie_gbytes_per_s(2.5, 1), 0.25);  // 8b/10b
  EXPECT_EQ(pcie_gbytes_per_s(5, 16), 8.0);    // 8b/10b
  EXPECT_EQ(pcie_gbytes_per_s(8, 16), 15.75);  // 128b/130b
  EXPECT_EQ(pcie_gbytes_per_s(16, 16), 31.51);
  EXPECT_EQ(pcie_gbytes_per_s(16, 4), 7.88);
  EXPECT_EQ(pcie_gbytes_per_s(32, 16), 63.02);
  EXPECT_EQ(pcie_gbytes_per_s(64, 16), 121.0);  // FLIT 242/256
  EXPECT_EQ(pcie_generation(16.0), 4);
  EXPECT_EQ(pcie_generation(2.5), 1);
  EXPECT_EQ(pcie_generation(20.0), std::nullopt);
}

Snapshot link_files(const char* cur_speed, const char* cur_width, const char* max_speed,
                    const char* max_width) {
  Snapshot s;
  const std::string d = "/sys/bus/pci/devices/0000:1b:00.0/";
  s.files[d + "current_link_speed"] = FileEntry::of_content(cur_speed);
  s.files[d + "current_link_width"] = FileEntry::of_content(cur_width);
  s.files[d + "max_link_speed"] = FileEntry::of_content(max_speed);
  s.files[d + "max_link_width"] = FileEntry::of_content(max_width);
  return s;
}

TEST(PcieLink, ReadsAndFlagsALinkBelowMax) {
  SnapshotHost host(link_files("16.0 GT/s PCIe\n", "8\n", "16.0 GT/s PCIe\n", "16\n"));
  std::vector<Warning> w;
  auto link = read_pcie_link(host, "0000:1b:00.0", w);
  ASSERT_TRUE(link);
  EXPECT_TRUE(w.empty());
  EXPECT_TRUE(link->below_max());
  EXPECT_EQ(link->current.gbytes_per_s, 15.75);
  EXPECT_EQ(pcie_link_text(*link), "Gen4 x8 (15.75 GB/s; max Gen4 x16, 31.51 GB/s)");
}

TEST(PcieLink, FullLinkText) {
  SnapshotHost host(link_files("32.0 GT/s PCIe\n", "16\n", "32.0 GT/s PCIe\n", "16\n"));
  std::vector<Warning> w;
  auto link = read_pcie_link(host, "0000:1b:00.0", w);
  ASSERT_TRUE(link);
  EXPECT_FALSE(link->below_max());
  EXPECT_EQ(pcie_link_text(*link), "Gen5 x16 (63.02 GB/s)");
}

TEST(PcieLink, MissingIsSilentGarbageAndEaccesAreWarnings) {
  SnapshotHost none(Snapshot{});
  std::vector<Warning> w;
  EXPECT_FALSE(read_pcie_link(none, "0000:1b:00.0", w));
  EXPECT_TRUE(w.empty());

  // A pass-through GPU in a VM: "Unknown" and 0 are what sysfs says, no warning.
  SnapshotHost vm(link_files("Unknown\n", "0\n", "Unknown\n", "0\n"));
  auto link = read_pcie_link(vm, "0000:1b:00.0", w);
  ASSERT_TRUE(link);
  EXPECT_FALSE(link->current.gbytes_per_s);
  EXPECT_TRUE(w.empty());
  EXPECT_EQ(pcie_link_text(*link), "? GT/s x?");

  Snapshot bad = link_files("fast\n", "16\n", "16.0 GT/s PCIe\n", "16\n");
  bad.files["/sys/bus/pci/devices/0000:1b:00.0/max_link_width"] = FileEntry::of_error(EACCES);
  SnapshotHost garbled(bad);
  link = read_pcie_link(garbled, "0000:1b:00.0", w);
  ASSERT_TRUE(link);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NE(w[0].message.find("max_link_width: EACCES"), std::string::npos) << w[0].message;
  EXPECT_NE(w[1].message.find("current_link_speed: unexpected \"fast\""), std::string::npos)
      << w[1].message;
}

}  // namespace
}  // namespace hwaccel
