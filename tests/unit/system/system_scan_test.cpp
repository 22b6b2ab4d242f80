#include "src/system/system_scan.h"

#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"

namespace hwaccel {
namespace {

Entry gpu(int index, const std::string& bus, std::optional<int> numa = std::nullopt) {
  Entry e;
  e.backend = "cuda";
  e.index = index;
  e.pci_bus_id = bus;
  e.numa_node = numa;
  return e;
}

TEST(SystemScan, AttachesLinksAndFillsOnlyMissingNumaNodes) {
  Snapshot s;
  auto put = [&](const std::string& p, const std::string& v) {
    s.files[p] = FileEntry::of_content(v);
  };
  const std::string a = "/sys/bus/pci/devices/0000:1b:00.0/";
  put(a + "current_link_speed", "32.0 GT/s PCIe\n");
  put(a + "current_link_width", "16\n");
  put(a + "max_link_speed", "32.0 GT/s PCIe\n");
  put(a + "max_link_width", "16\n");
  put(a + "numa_node", "1\n");
  const std::string b = "/sys/bus/pci/devices/0000:43:00.0/";
  put(b + "numa_node", "-1\n");
  const std::string c = "/sys/bus/pci/devices/0000:52:00.0/";
  put(c + "numa_node", "zero\n");
  SnapshotHost host(s);

  std::vector<Entry> entries = {gpu(0, "0000:1b:00.0"), gpu(1, "0000:1b:00.0", 0),
                                gpu(2, "0000:43:00.0"), gpu(3, "0000:52:00.0"), gpu(4, "")};
  std::vector<Warning> w;
  attach_pci_details(host, entries, w);
  ASSERT_TRUE(entries[0].pcie);
  EXPECT_EQ(entries[0].pcie->current.gbytes_per_s, 63.02);
  EXPECT_EQ(entries[0].numa_node, 1);
  // A MIG slice shares its GPU's bus id: same link; its own NUMA node is kept.
  ASSERT_TRUE(entries[1].pcie);
  EXPECT_EQ(entries[1].numa_node, 0);
  EXPECT_FALSE(entries[2].pcie);
  EXPECT_EQ(entries[2].numa_node, std::nullopt);  // -1: no affinity
  EXPECT_EQ(entries[3].numa_node, std::nullopt);
  EXPECT_FALSE(entries[4].pcie);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].message.find("0000:52:00.0/numa_node: unexpected \"zero\""), std::string::npos)
      << w[0].message;
}

TEST(SystemScan, AnEmptyHostGivesAnEmptySystemAndNoWarnings) {
  SnapshotHost host(Snapshot{});
  SystemInfo s = scan_system(host);
  EXPECT_TRUE(s.ports.empty());
  EXPECT_TRUE(s.storage.empty());
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_EQ(s.environment.virtual_machine, std::nullopt);
}

}  // namespace
}  // namespace hwaccel
