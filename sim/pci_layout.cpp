#include "sim/pci_layout.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>

namespace hwaccel::sim {

std::string pci_bdf(int domain, int bus, int dev, int fn) {
  char out[16];
  std::snprintf(out, sizeof out, "%04x:%02x:%02x.%d", domain & 0xffff, bus & 0xff, dev & 0x1f,
                fn & 7);
  return out;
}

namespace {

struct Joined {
  std::vector<int> up;
  explicit Joined(std::size_t n) : up(n) { std::iota(up.begin(), up.end(), 0); }
  int find(int x) { return up[x] == x ? x : up[x] = find(up[x]); }
  void join(int a, int b) { up[find(a)] = find(b); }
};

// One bus with recorded devices on it.
struct Unit {
  int domain = 0, bus = 0, numa = -1;
  bool topo = false;
  std::set<int> devs;
  std::vector<int> endpoints;
};

// A bus of the planned tree: a host bridge's root bus, the bus between a root
// (or downstream) port and a switch's upstream port, a switch's internal bus, or
// a recorded bus. Edges are bridges: root ports out of the root, the upstream
// port out of an `up` bus, downstream ports out of an `internal` bus.
enum class Kind { root, up, internal, unit };
struct Node {
  Kind kind = Kind::unit;
  int unit = -1;
  int number = -1;
  int subordinate = -1;
  std::vector<int> kids;
};

class Run {
 public:
  Run(const std::vector<Unit>& units, const std::set<int>& taken, PciLayout& out)
      : units_(units), taken_(taken), out_(out) {}

  int node(Kind k, int unit = -1) {
    nodes_.push_back({k, unit, unit >= 0 ? units_[unit].bus : -1, -1, {}});
    return int(nodes_.size()) - 1;
  }
  void kid(int parent, int child) { nodes_[parent].kids.push_back(child); }
  Node& at(int i) { return nodes_[i]; }

  // Numbers the free buses (preorder, each below the next recorded bus and above
  // `last`), then writes the host bridge, bridges and endpoint places. False
  // (and nothing kept) where the numbers or the slots are not there.
  bool commit(int root, int& last) {
    std::vector<int> order, pending;
    preorder(root, order);
    int at = last;
    for (int n : order) {
      if (nodes_[n].kind != Kind::unit) {
        pending.push_back(n);
        continue;
      }
      const int bus = nodes_[n].number;
      if (bus <= at) return false;
      std::vector<int> free;
      for (int b = bus - 1; b > at && free.size() < pending.size(); --b)
        if (!taken_.count(b)) free.push_back(b);
      if (free.size() < pending.size()) return false;
      std::reverse(free.begin(), free.end());
      for (std::size_t i = 0; i < pending.size(); ++i) nodes_[pending[i]].number = free[i];
      pending.clear();
      at = bus;
    }
    if (!pending.empty()) return false;
    subordinate(root);
    // Written in place and cut back on failure (a copy per try would make a host
    // of many runs quadratic); a later try places the same endpoints again.
    const std::size_t hosts = out_.hosts.size(), bridges = out_.bridges.size();
    PciLayout& draft = out_;
    const Unit& first = units_[first_unit(root)];
    const int host = int(draft.hosts.size());
    draft.hosts.push_back(
        {first.domain, nodes_[root].number, nodes_[root].subordinate, first.numa});
    char name[16];
    std::snprintf(name, sizeof name, "pci%04x:%02x", first.domain & 0xffff,
                  nodes_[root].number & 0xff);
    if (!emit(draft, root, name, -1, host)) {
      out_.hosts.resize(hosts);
      out_.bridges.resize(bridges);
      return false;
    }
    last = nodes_[root].subordinate;
    return true;
  }

 private:
  void preorder(int n, std::vector<int>& order) {
    order.push_back(n);
    for (int k : nodes_[n].kids) preorder(k, order);
  }
  int subordinate(int n) {
    int s = nodes_[n].number;
    for (int k : nodes_[n].kids) s = std::max(s, subordinate(k));
    return nodes_[n].subordinate = s;
  }
  int first_unit(int n) const {
    while (nodes_[n].kind != Kind::unit) n = nodes_[n].kids.front();
    return nodes_[n].unit;
  }

  void place(PciLayout& draft, int n, const std::string& prefix, int bridge, int host) {
    if (nodes_[n].kind != Kind::unit) return;
    for (int e : units_[nodes_[n].unit].endpoints) {
      draft.parent[e] = bridge;
      draft.host[e] = host;
      draft.path[e] = prefix;  // the endpoint's own name is added below
    }
  }

  bool emit(PciLayout& draft, int n, const std::string& prefix, int bridge, int host) {
    place(draft, n, prefix, bridge, host);
    const Node& me = nodes_[n];
    const int domain = units_[first_unit(n)].domain;
    std::set<int> used = me.kind == Kind::unit ? units_[me.unit].devs : std::set<int>{};
    int slot = 0;  // root ports: device 1 up, then function 1 up; switch ports: 0 up
    for (std::size_t i = 0; i < me.kids.size(); ++i) {
      int dev = 0, fn = 0;
      if (me.kind == Kind::internal || me.kind == Kind::up) {
        if (i > 31 || (me.kind == Kind::up && i > 0)) return false;
        dev = int(i);
      } else {
        for (;; ++slot) {
          if (slot >= 256) return false;
          dev = (slot % 32 + 1) % 32;
          fn = slot / 32;
          if (!used.count(dev)) break;
        }
        ++slot;
      }
      const Node& k = nodes_[me.kids[i]];
      PciBridge b;
      b.kind = me.kind == Kind::internal ? PciBridge::Kind::switch_down
               : me.kind == Kind::up     ? PciBridge::Kind::switch_up
                                         : PciBridge::Kind::root_port;
      b.domain = domain;
      b.bus = me.number;
      b.dev = dev;
      b.fn = fn;
      b.secondary = k.number;
      b.subordinate = k.subordinate;
      b.parent = bridge;
      b.host = host;
      b.numa = units_[first_unit(me.kids[i])].numa;
      b.path = prefix + "/" + pci_bdf(domain, me.number, dev, fn);
      draft.bridges.push_back(b);
      if (!emit(draft, me.kids[i], b.path, int(draft.bridges.size()) - 1, host)) return false;
    }
    return true;
  }

  const std::vector<Unit>& units_;
  const std::set<int>& taken_;
  PciLayout& out_;
  std::vector<Node> nodes_;
};

// Consecutive pieces of `run` whose units have one root in `by`.
std::vector<std::vector<int>> pieces(const std::vector<int>& run, Joined& by) {
  std::vector<std::vector<int>> out;
  for (int u : run) {
    if (out.empty() || by.find(out.back().front()) != by.find(u)) out.emplace_back();
    out.back().push_back(u);
  }
  return out;
}

}  // namespace

PciLayout lay_out_pci(const std::vector<PciEndpoint>& endpoints,
                      const std::vector<PciRelation>& relations, const std::set<int>& reserved) {
  PciLayout out;
  out.parent.assign(endpoints.size(), -1);
  out.host.assign(endpoints.size(), -1);
  out.path.assign(endpoints.size(), "");
  // Units: one per (domain, bus), in bus order.
  std::map<std::pair<int, int>, int> unit_of;
  for (const auto& e : endpoints) unit_of.emplace(std::pair{e.domain, e.bus}, 0);
  std::vector<Unit> units;
  for (auto& [key, index] : unit_of) {
    index = int(units.size());
    units.push_back({key.first, key.second, -1, false, {}, {}});
  }
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    const auto& e = endpoints[i];
    Unit& u = units[unit_of.at({e.domain, e.bus})];
    if (u.endpoints.empty()) u.numa = e.numa;  // the lowest function's node
    u.endpoints.push_back(int(i));
    u.devs.insert(e.dev);
    u.topo = u.topo || e.in_topology;
  }
  Joined pix(units.size()), pxb(units.size()), phb(units.size());
  for (const auto& r : relations) {
    if (r.a < 0 || r.b < 0 || std::size_t(r.a) >= endpoints.size() ||
        std::size_t(r.b) >= endpoints.size())
      continue;
    const auto& a = endpoints[r.a];
    const auto& b = endpoints[r.b];
    if (a.domain != b.domain) continue;
    int ua = unit_of.at({a.domain, a.bus}), ub = unit_of.at({b.domain, b.bus});
    if (r.path == PciPath::pix) pix.join(ua, ub);
    if (r.path != PciPath::phb) pxb.join(ua, ub);
    phb.join(ua, ub);
  }
  std::map<int, std::set<int>> taken;  // domain -> buses
  for (const auto& u : units) taken[u.domain].insert(u.bus);
  for (int r : reserved) taken[r >> 8].insert(r & 0xff);
  // Host bridges: runs of consecutive buses with one key (the stated host bridge,
  // else the NUMA node).
  std::vector<std::vector<int>> runs;
  auto key = [&](int u) {
    return units[u].topo ? std::pair{1, phb.find(u)} : std::pair{0, units[u].numa};
  };
  for (int u = 0; u < int(units.size()); ++u) {
    if (runs.empty() || units[runs.back().front()].domain != units[u].domain ||
        key(runs.back().front()) != key(u))
      runs.emplace_back();
    runs.back().push_back(u);
  }
  std::set<std::pair<int, int>> seen;
  int domain = -1, last = -1;
  for (const auto& run : runs) {
    const Unit& first = units[run.front()];
    if (first.domain != domain) domain = first.domain, last = -1;
    if (!seen.insert(key(run.front())).second && first.topo)
      out.notes.emplace_back(first.endpoints.front(),
                             "its stated host bridge is split by buses between: two host bridges");
    const std::set<int>& free = taken[domain];
    // The stated shape (4); PXB sets behind one switch (3); a root port per bus
    // (2); the first bus as the root bus (1); each bus a root bus (0).
    bool nests = false;
    for (int level = 4; level >= 0; --level) {
      if (level == 0) {
        for (int u : run) {
          Run flat(units, free, out);
          int r = flat.node(Kind::unit, u);
          flat.commit(r, last);
        }
        out.notes.emplace_back(first.endpoints.front(),
                               "no slots for root ports on its bus: each bus a root bus");
        break;
      }
      Run plan(units, free, out);
      int root = level == 1 ? plan.node(Kind::unit, run.front()) : plan.node(Kind::root);
      if (level >= 3) {
        for (const auto& group : pieces(run, pxb)) {
          auto sets = pieces(group, pix);
          if (group.size() == 1) {
            plan.kid(root, plan.node(Kind::unit, group.front()));
            continue;
          }
          int up = plan.node(Kind::up), inner = plan.node(Kind::internal);
          plan.kid(root, up);
          plan.kid(up, inner);
          for (std::size_t i = 0; i < sets.size(); ++i) {
            // Sets behind one switch (PIX) share it; a set of its own below the
            // first switch is PXB from the others (the path crosses two switches).
            int parent = inner;
            if (level == 4 && sets.size() > 1 && (i > 0 || sets[i].size() > 1)) {
              int up2 = plan.node(Kind::up);
              parent = plan.node(Kind::internal);
              plan.kid(inner, up2);
              plan.kid(up2, parent);
              nests = true;
            }
            for (int u : sets[i]) plan.kid(parent, plan.node(Kind::unit, u));
          }
        }
      } else {
        for (std::size_t i = level == 1 ? 1 : 0; i < run.size(); ++i)
          plan.kid(root, plan.node(Kind::unit, run[i]));
      }
      if (level == 3 && !nests) continue;  // the same shape as 4, which failed
      if (plan.commit(root, last)) {
        if (level == 3)
          out.notes.emplace_back(first.endpoints.front(),
                                 "no free bus numbers between its buses for a second switch: "
                                 "its PXB paths are shown behind one switch");
        else if (level < 3 && first.topo && run.size() > 1)
          out.notes.emplace_back(first.endpoints.front(),
                                 "not enough free bus numbers for its stated switches: a root "
                                 "port per bus");
        break;
      }
    }
  }
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    const auto& e = endpoints[i];
    out.path[i] += "/" + pci_bdf(e.domain, e.bus, e.dev, e.fn);
  }
  return out;
}

}  // namespace hwaccel::sim
