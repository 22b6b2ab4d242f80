#include "src/system/infiniband.h"

#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"

namespace hwaccel {
namespace {

TEST(Infiniband, PortStates) {
  EXPECT_EQ(parse_ib_port_state("4: ACTIVE\n"), "ACTIVE");
  EXPECT_EQ(parse_ib_port_state("1: DOWN\n"), "DOWN");
  EXPECT_EQ(parse_ib_port_state("2: INIT"), "INIT");
  EXPECT_EQ(parse_ib_port_state("ACTIVE"), "");
  EXPECT_EQ(parse_ib_port_state("x: ACTIVE"), "");
  EXPECT_EQ(parse_ib_port_state("4: active"), "");
}

TEST(Infiniband, RatesAsTheKernelPrintsThem) {
  auto ndr = parse_ib_rate("400 Gb/sec (4X NDR)\n");
  ASSERT_TRUE(ndr);
  EXPECT_EQ(ndr->gbits_per_s, 400);
  EXPECT_EQ(ndr->width, "4X");
  EXPECT_EQ(ndr->speed, "NDR");
  EXPECT_EQ(ndr->gbytes_per_s, 50);
  EXPECT_EQ(parse_ib_rate("200 Gb/sec (4X HDR)")->gbytes_per_s, 25);
  EXPECT_EQ(parse_ib_rate("100 Gb/sec (4X EDR)")->gbytes_per_s, 12.5);
  EXPECT_EQ(parse_ib_rate("56 Gb/sec (4X FDR)")->gbytes_per_s, 7);
  // 8b/10b generations: the rate is a signalling rate.
  EXPECT_EQ(parse_ib_rate("40 Gb/sec (4X QDR)")->gbytes_per_s, 4);
  EXPECT_EQ(parse_ib_rate("2.5 Gb/sec (1X SDR)")->gbytes_per_s, 0.25);
  EXPECT_EQ(parse_ib_rate("25 Gb/sec (1X EDR)")->gbytes_per_s, 3.13);
  EXPECT_FALSE(parse_ib_rate("fast"));
  EXPECT_FALSE(parse_ib_rate("400 Gb/s (4X NDR)"));
  EXPECT_FALSE(parse_ib_rate("400 Gb/sec (4X NDR"));
  EXPECT_FALSE(parse_ib_rate("2.55 Gb/sec (1X SDR)"));
  EXPECT_FALSE(parse_ib_rate(""));
}

TEST(Infiniband, PciAddressFromDeviceLink) {
  EXPECT_EQ(pci_address_from_link("../../../0000:1B:00.0"), "0000:1b:00.0");
  EXPECT_EQ(pci_address_from_link("../../../0000:1b:00.0/"), "0000:1b:00.0");
  EXPECT_EQ(pci_address_from_link("../../../virtio3"), "");
  EXPECT_EQ(pci_address_from_link(""), "");
}

TEST(Infiniband, ScansPortsOfHcaRoceAndEfa) {
  Snapshot s;
  auto put = [&](const std::string& p, const std::string& v) {
    s.files[p] = FileEntry::of_content(v);
  };
  const std::string ib = "/sys/class/infiniband/";
  s.files[ib + "mlx5_0/device"] = FileEntry::of_link("../../../0000:1a:00.0");
  put("/sys/bus/pci/devices/0000:1a:00.0/numa_node", "0\n");
  put("/sys/bus/pci/devices/0000:1a:00.0/current_link_speed", "32.0 GT/s PCIe\n");
  put("/sys/bus/pci/devices/0000:1a:00.0/current_link_width", "16\n");
  put(ib + "mlx5_0/ports/1/state", "4: ACTIVE\n");
  put(ib + "mlx5_0/ports/1/rate", "400 Gb/sec (4X NDR)\n");
  put(ib + "mlx5_0/ports/1/link_layer", "InfiniBand\n");
  put(ib + "mlx5_1/ports/1/state", "1: DOWN\n");
  put(ib + "mlx5_1/ports/1/rate", "100 Gb/sec (4X EDR)\n");
  put(ib + "mlx5_1/ports/1/link_layer", "Ethernet\n");
  put(ib + "rdmap16s27/ports/1/state", "4: ACTIVE\n");
  put(ib + "rdmap16s27/ports/1/rate", "garbage\n");
  s.files[ib + "rdmap16s27/ports/1/link_layer"] = FileEntry::of_error(EACCES);
  SnapshotHost host(s);
  std::vector<Warning> w;
  auto ports = scan_infiniband(host, w);
  ASSERT_EQ(ports.size(), 3u);
  EXPECT_EQ(ports[0].device, "mlx5_0");
  EXPECT_EQ(ports[0].state, "ACTIVE");
  EXPECT_EQ(ports[0].gbytes_per_s, 50);
  EXPECT_EQ(ports[0].pci_bus_id, "0000:1a:00.0");
  EXPECT_EQ(ports[0].numa_node, 0);
  ASSERT_TRUE(ports[0].pcie);
  EXPECT_EQ(ports[0].pcie->current.gbytes_per_s, 63.02);
  EXPECT_EQ(ports[1].link_layer, "Ethernet");
  EXPECT_EQ(ports[1].state, "DOWN");
  EXPECT_EQ(ports[2].device, "rdmap16s27");
  EXPECT_FALSE(ports[2].gbytes_per_s);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NE(w[0].message.find("link_layer: EACCES"), std::string::npos) << w[0].message;
  EXPECT_NE(w[1].message.find("rate: unexpected \"garbage\""), std::string::npos) << w[1].message;
}

TEST(Infiniband, NoInfinibandIsNoPortsAndNoWarning) {
  SnapshotHost host(Snapshot{});
  std::vector<Warning> w;
  EXPECT_TRUE(scan_infiniband(host, w).empty());
  EXPECT_TRUE(w.empty());
}

}  // namespace
}  // namespace hwaccel
