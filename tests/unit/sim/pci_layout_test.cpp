#include "sim/pci_layout.h"

#include <gtest/gtest.h>

namespace hwaccel::sim {
namespace {

PciEndpoint at(int bus, int numa, bool topo = false, int dev = 0, int fn = 0) {
  PciEndpoint e;
  e.bus = bus;
  e.dev = dev;
  e.fn = fn;
  e.numa = numa;
  e.in_topology = topo;
  return e;
}

TEST(PciLayout, BusIdsAreTheKernelsSpelling) {
  EXPECT_EQ(pci_bdf(0, 0x1b, 0, 0), "0000:1b:00.0");
  EXPECT_EQ(pci_bdf(0x10000 | 0x2, 0xff, 31, 7), "0002:ff:1f.7");
}

// DGX H100's GPU 0 and its compute NIC (topo -m: PXB): one root port, a switch
// whose first downstream port holds the NIC and whose second leads to a second
// switch above the GPU, so the path between them crosses two switches.
TEST(PciLayout, PxbPairsSitBelowOneRootPortAcrossTwoSwitches) {
  auto l = lay_out_pci({at(0x18, 0, true), at(0x1b, 0, true)}, {{0, 1, PciPath::pxb}});
  ASSERT_EQ(l.hosts.size(), 1u);
  EXPECT_EQ(l.hosts[0].bus, 0x15);
  EXPECT_EQ(l.hosts[0].subordinate, 0x1b);
  EXPECT_EQ(l.path[0], "pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/0000:18:00.0");
  EXPECT_EQ(l.path[1],
            "pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/0000:19:00.0/0000:1a:00.0/"
            "0000:1b:00.0");
  ASSERT_EQ(l.bridges.size(), 6u);
  const PciBridge& root = l.bridges[0];
  EXPECT_EQ(root.kind, PciBridge::Kind::root_port);
  EXPECT_EQ(root.secondary, 0x16);
  EXPECT_EQ(root.subordinate, 0x1b);
  EXPECT_EQ(l.bridges[1].kind, PciBridge::Kind::switch_up);
  EXPECT_EQ(l.bridges[2].kind, PciBridge::Kind::switch_down);
  EXPECT_EQ(l.bridges[2].secondary, 0x18);  // the NIC's bus
  EXPECT_EQ(l.bridges[2].subordinate, 0x18);
  EXPECT_TRUE(l.notes.empty());
}

// PIX: both behind the downstream ports of one switch.
TEST(PciLayout, PixPairsShareOneSwitch) {
  auto l = lay_out_pci({at(0x40, 0, true), at(0x41, 0, true)}, {{0, 1, PciPath::pix}});
  EXPECT_EQ(l.path[0], "pci0000:3d/0000:3d:01.0/0000:3e:00.0/0000:3f:00.0/0000:40:00.0");
  EXPECT_EQ(l.path[1], "pci0000:3d/0000:3d:01.0/0000:3e:00.0/0000:3f:01.0/0000:41:00.0");
  EXPECT_EQ(l.bridges.size(), 4u);
}

// PHB: one host bridge, a root port each. NODE (no relation, both in the
// matrix): a host bridge each, even on one NUMA node.
TEST(PciLayout, PhbSharesAHostBridgeAndNodeDoesNot) {
  auto phb = lay_out_pci({at(0x20, 0, true), at(0x30, 0, true)}, {{0, 1, PciPath::phb}});
  ASSERT_EQ(phb.hosts.size(), 1u);
  EXPECT_EQ(phb.path[0], "pci0000:1f/0000:1f:01.0/0000:20:00.0");
  EXPECT_EQ(phb.path[1], "pci0000:1f/0000:1f:02.0/0000:30:00.0");
  auto node = lay_out_pci({at(0x20, 0, true), at(0x30, 0, true)}, {});
  ASSERT_EQ(node.hosts.size(), 2u);
  EXPECT_EQ(node.path[1], "pci0000:2f/0000:2f:01.0/0000:30:00.0");
}

// Nothing stated: a root port per bus, one host bridge per run of buses on one
// NUMA node; the functions of one device share its bus and root port.
TEST(PciLayout, WithoutTopologyEachBusGetsARootPortOnItsNodesHostBridge) {
  auto l = lay_out_pci(
      {at(0x29, 0, false, 0, 0), at(0x29, 0, false, 0, 1), at(0x2b, 0), at(0x9a, 1)}, {});
  ASSERT_EQ(l.hosts.size(), 2u);
  EXPECT_EQ(l.path[0], "pci0000:28/0000:28:01.0/0000:29:00.0");
  EXPECT_EQ(l.path[1], "pci0000:28/0000:28:01.0/0000:29:00.1");
  EXPECT_EQ(l.path[2], "pci0000:28/0000:28:02.0/0000:2b:00.0");
  EXPECT_EQ(l.path[3], "pci0000:99/0000:99:01.0/0000:9a:00.0");
  EXPECT_EQ(l.hosts[1].numa, 1);
}

// Bus 0 has no number below it: its devices sit on the root bus (as a laptop's
// integrated GPU does) and the next bus gets a root port there, in a slot none
// of bus 0's devices use.
TEST(PciLayout, BusZeroIsTheRootBusAndPortsAvoidItsSlots) {
  auto l = lay_out_pci({at(0x00, 0, false, 1), at(0x00, 0, false, 2), at(0x01, 0)}, {});
  ASSERT_EQ(l.hosts.size(), 1u);
  EXPECT_EQ(l.hosts[0].bus, 0);
  EXPECT_EQ(l.path[0], "pci0000:00/0000:00:01.0");
  EXPECT_EQ(l.path[2], "pci0000:00/0000:00:03.0/0000:01:00.0");
}

// No free numbers for a switch (buses 0x01-0x03 all taken): a simpler shape, said.
TEST(PciLayout, WithoutFreeBusNumbersASimplerShapeAndANote) {
  auto l = lay_out_pci({at(0x01, 0, true), at(0x02, 0, true), at(0x03, 0, true)},
                       {{0, 1, PciPath::pix}, {1, 2, PciPath::pix}});
  ASSERT_EQ(l.hosts.size(), 1u);
  EXPECT_EQ(l.path[0], "pci0000:00/0000:00:01.0/0000:01:00.0");
  EXPECT_EQ(l.path[2], "pci0000:00/0000:00:03.0/0000:03:00.0");
  ASSERT_FALSE(l.notes.empty());
  EXPECT_NE(l.notes[0].second.find("root port per bus"), std::string::npos);
  // Reserved buses (devices the snapshot places itself) are not free either.
  auto r = lay_out_pci({at(0x01, 0)}, {}, {0x00});
  EXPECT_EQ(r.path[0], "pci0000:01/0000:01:00.0");
}

}  // namespace
}  // namespace hwaccel::sim
