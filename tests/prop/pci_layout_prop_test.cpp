// Generated PCI hosts (devices on random buses and NUMA nodes, random stated
// PIX/PXB/PHB paths between them) laid out as a kernel would: what lspci -t and
// hwloc rely on holds. Every device keeps its bus id and sits below one chain of
// bridges whose bus ranges contain its bus, the deepest one's secondary bus
// being its own; a bridge's range lies inside its parent's; siblings' ranges
// and host bridges' ranges do not overlap; no two functions share a bus id.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "sim/pci_layout.h"

namespace hwaccel::sim {
namespace {

RC_GTEST_PROP(PciLayout, EveryBusIsInsideExactlyOneChainOfBridges, ()) {
  const int n = *rc::gen::inRange(1, 40);
  std::vector<PciEndpoint> eps;
  std::set<std::tuple<int, int, int, int>> ids;
  for (int i = 0; i < n; ++i) {
    PciEndpoint e;
    e.domain = *rc::gen::element(0, 0, 1);
    e.bus = *rc::gen::inRange(0, 256);
    e.dev = *rc::gen::inRange(0, 32);
    e.fn = *rc::gen::element(0, 0, 1, 7);
    e.numa = *rc::gen::inRange(-1, 3);
    e.in_topology = *rc::gen::arbitrary<bool>();
    if (ids.insert({e.domain, e.bus, e.dev, e.fn}).second) eps.push_back(e);
  }
  std::vector<PciRelation> rel;
  const int m = *rc::gen::inRange(0, 30);
  for (int i = 0; i < m; ++i)
    rel.push_back({*rc::gen::inRange(0, int(eps.size())), *rc::gen::inRange(0, int(eps.size())),
                   *rc::gen::element(PciPath::pix, PciPath::pxb, PciPath::phb)});
  const PciLayout l = lay_out_pci(eps, rel);

  // Every bus id is unique across devices and bridges, and the devices' are kept.
  std::set<std::string> names;
  for (std::size_t i = 0; i < eps.size(); ++i) {
    const auto& e = eps[i];
    const std::string bdf = pci_bdf(e.domain, e.bus, e.dev, e.fn);
    RC_ASSERT(l.path[i].size() > bdf.size());
    RC_ASSERT(l.path[i].substr(l.path[i].size() - bdf.size()) == bdf);
    RC_ASSERT(names.insert(bdf).second);
  }
  for (const auto& b : l.bridges) {
    RC_ASSERT(names.insert(pci_bdf(b.domain, b.bus, b.dev, b.fn)).second);
    RC_ASSERT(b.bus < b.secondary);
    RC_ASSERT(b.secondary <= b.subordinate);
    RC_ASSERT(b.subordinate <= 255);
    const PciHostBridge& h = l.hosts.at(b.host);
    RC_ASSERT(h.domain == b.domain);
    RC_ASSERT(h.bus <= b.bus && b.subordinate <= h.subordinate);
    if (b.parent >= 0) {
      const PciBridge& p = l.bridges.at(b.parent);
      RC_ASSERT(p.secondary == b.bus);  // on its parent's secondary bus
      RC_ASSERT(p.secondary < b.secondary && b.subordinate <= p.subordinate);
    } else {
      RC_ASSERT(b.bus == h.bus);
    }
  }
  // Each device: its chain's ranges contain its bus, the deepest one's secondary is it.
  for (std::size_t i = 0; i < eps.size(); ++i) {
    const auto& e = eps[i];
    const PciHostBridge& h = l.hosts.at(l.host[i]);
    RC_ASSERT(h.domain == e.domain && h.bus <= e.bus && e.bus <= h.subordinate);
    if (l.parent[i] < 0) RC_ASSERT(h.bus == e.bus);
    int depth = 0;
    for (int b = l.parent[i]; b >= 0; b = l.bridges[b].parent, ++depth) {
      const PciBridge& br = l.bridges[b];
      RC_ASSERT(br.secondary <= e.bus && e.bus <= br.subordinate);
      if (depth == 0) RC_ASSERT(br.secondary == e.bus);
      RC_ASSERT(depth < 8);
    }
    // No bridge outside the chain claims the bus (exactly one chain).
    std::set<int> chain;
    for (int b = l.parent[i]; b >= 0; b = l.bridges[b].parent) chain.insert(b);
    for (std::size_t b = 0; b < l.bridges.size(); ++b) {
      const PciBridge& br = l.bridges[b];
      if (br.domain == e.domain && br.secondary <= e.bus && e.bus <= br.subordinate)
        RC_ASSERT(chain.count(int(b)) == 1u);
    }
  }
  // Siblings (one parent) and host bridges of one domain do not overlap.
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> ranges;
  for (const auto& b : l.bridges)
    ranges[{b.host, b.parent}].push_back({b.secondary, b.subordinate});
  for (const auto& h : l.hosts) ranges[{-1 - h.domain, -2}].push_back({h.bus, h.subordinate});
  for (auto& [_, rs] : ranges) {
    std::sort(rs.begin(), rs.end());
    for (std::size_t k = 1; k < rs.size(); ++k) RC_ASSERT(rs[k - 1].second < rs[k].first);
  }
}

}  // namespace
}  // namespace hwaccel::sim
