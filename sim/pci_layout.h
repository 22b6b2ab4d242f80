// Where the kernel would put a host's PCI devices: host bridges (root buses),
// root ports, PCIe switch ports, and each recorded device below them. A
// snapshot records devices by bus id only; the layout adds the bridges a real
// machine has between them and the CPU, with bus numbers consistent with the
// recorded ones (a bridge's secondary bus is the bus of the devices below it,
// its subordinate the highest bus below it), never changing a recorded bus id.
//
// The shape follows what the snapshot says about paths (nvidia-smi topo -m):
//   PIX  two buses behind one PCIe switch (root port, switch up, switch downs);
//   PXB  behind more than one switch below one root port (a switch of switches);
//   PHB  one host bridge, different root ports;
//   other devices: a root port each, one host bridge per run of buses on one NUMA node.
// Where the free bus numbers a shape needs are not there, a simpler shape is
// taken (a root port per bus, then each bus a root bus of its own) and a note says so.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace hwaccel::sim {

struct PciEndpoint {
  int domain = 0, bus = 0, dev = 0, fn = 0;
  int numa = -1;
  bool in_topology = false;  // a row of the recorded path matrix (else the NUMA default)
};

enum class PciPath { pix, pxb, phb };

// A path the snapshot states between two endpoints (indexes into the endpoints).
struct PciRelation {
  int a = 0, b = 0;
  PciPath path = PciPath::phb;
};

struct PciBridge {
  enum class Kind { root_port, switch_up, switch_down };
  Kind kind = Kind::root_port;
  int domain = 0, bus = 0, dev = 0, fn = 0;  // where the bridge itself is
  int secondary = 0, subordinate = 0;
  int parent = -1;  // the bridge above it; -1: on its host bridge's root bus
  int host = 0;     // index into PciLayout::hosts
  int numa = -1;
  std::string path;  // below /sys/devices/: "pci0000:15/0000:15:01.0"
};

struct PciHostBridge {
  int domain = 0, bus = 0, subordinate = 0;
  int numa = -1;
};

struct PciLayout {
  std::vector<PciHostBridge> hosts;
  std::vector<PciBridge> bridges;
  std::vector<int> parent;        // per endpoint: its bridge, -1 on the root bus
  std::vector<int> host;          // per endpoint
  std::vector<std::string> path;  // per endpoint, below /sys/devices/
  // Where the stated paths could not be laid out: (an endpoint of the bus, why).
  std::vector<std::pair<int, std::string>> notes;
};

// `reserved`: (domain << 8 | bus) numbers that are taken although no endpoint
// here is on them (devices the snapshot already places itself).
PciLayout lay_out_pci(const std::vector<PciEndpoint>& endpoints,
                      const std::vector<PciRelation>& relations,
                      const std::set<int>& reserved = {});

// "0000:1b:00.0"
std::string pci_bdf(int domain, int bus, int dev, int fn);

}  // namespace hwaccel::sim
