// amdkfd's topology (drivers/gpu/drm/amd/amdkfd/kfd_topology.c, kfd_crat.c)
// around the node properties a snapshot records: each node's `gpu_id` and
// `name`, its `io_links` (a GPU's PCIe link to the CPU node of its NUMA node and
// the CPU's reverse link, XGMI links between GPUs of one hive, links between
// CPU nodes), an empty `p2p_links` where the properties count them, and
// /sys/module/amdgpu/initstate for a bound amdgpu. ROCm's own library
// (librocm_smi64) refuses a node without these. Nothing here is a measurement:
// gpu_id is derived as the kernel derives it, the rest is the kernel's layout.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>

#include "sim/kernel_fill_parts.h"
#include "sim/kfd_properties.h"

namespace hwaccel::sim {
namespace {

const std::string kNodes = "/sys/class/kfd/kfd/topology/nodes/";

// kfd_crat.h's link types and kfd_crat.c's weights.
constexpr int kLinkHyperTransport = 1, kLinkPcie = 2, kLinkQpi = 5, kLinkXgmi = 11;
constexpr int kWeightPcie = 20, kWeightXgmi = 15, kWeightRemoteNuma = 21;

using Properties = KfdProperties;

std::uint64_t value(const Properties& p, const std::string& key) {
  auto it = p.find(key);
  return it == p.end() ? 0 : it->second;
}

long long decimal_file(const Filler& f, const std::string& path) {
  auto text = f.read(path);
  if (!text) return -1;
  std::string_view t = *text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.remove_suffix(1);
  long long v = -1;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && end == t.data() + t.size() ? v : -1;
}

// The kernel's "major.minor" as major * 1000 + minor; 0 when not recorded.
int kernel_version(const std::string& release) {
  int major = 0, minor = 0;
  auto dot = release.find('.');
  if (dot == std::string::npos) return 0;
  std::from_chars(release.data(), release.data() + dot, major);
  std::from_chars(release.data() + dot + 1, release.data() + release.size(), minor);
  return major * 1000 + minor;
}

// iolink_show()'s lines, in its order.
std::string link_properties(int type, int from, int to, int weight) {
  return "type " + std::to_string(type) + "\nversion_major 0\nversion_minor 0\nnode_from " +
         std::to_string(from) + "\nnode_to " + std::to_string(to) + "\nweight " +
         std::to_string(weight) +
         "\nmin_latency 0\nmax_latency 0\nmin_bandwidth 0\nmax_bandwidth 0\n"
         "recommended_transfer_size 0\nflags 1\n";
}

bool amdgpu_bound(const Snapshot& s) {
  const std::string bus = "/sys/bus/pci/devices/";
  for (auto it = s.files.lower_bound(bus); it != s.files.end(); ++it) {
    const std::string& p = it->first;
    if (p.compare(0, bus.size(), bus) != 0) break;
    if (it->second.kind == FileEntry::Kind::link && p.size() > 7 &&
        p.compare(p.size() - 7, 7, "/driver") == 0 && it->second.target.size() >= 7 &&
        it->second.target.compare(it->second.target.size() - 7, 7, "/amdgpu") == 0)
      return true;
  }
  return false;
}

struct KfdNode {
  int index = 0;
  Properties props;
  bool gpu = false;
  std::string bdf;   // a GPU's PCI function
  int cpu_node = 0;  // the CPU node a GPU hangs off
};

}  // namespace

void fill_kfd(Filler& f) {
  std::vector<KfdNode> nodes;
  for (auto it = f.s.files.lower_bound(kNodes); it != f.s.files.end(); ++it) {
    const std::string& p = it->first;
    if (p.compare(0, kNodes.size(), kNodes) != 0) break;
    const std::string rest = p.substr(kNodes.size());
    auto slash = rest.find('/');
    if (slash == std::string::npos || rest.substr(slash) != "/properties") continue;
    int index = -1;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + slash, index);
    if (ec != std::errc() || end != rest.data() + slash || index < 0 || index > 4096) continue;
    if (it->second.kind != FileEntry::Kind::content) continue;
    KfdNode n;
    n.index = index;
    n.props = parse_kfd_properties(it->second.bytes);
    n.gpu = value(n.props, "simd_count") > 0 && value(n.props, "cpu_cores_count") == 0;
    nodes.push_back(std::move(n));
  }
  if (nodes.empty()) return;
  std::sort(nodes.begin(), nodes.end(),
            [](const KfdNode& a, const KfdNode& b) { return a.index < b.index; });

  if (amdgpu_bound(f.s))
    f.file("/sys/module/amdgpu/initstate", "live\n",
           "amdgpu is bound to a recorded device: a loaded module (kernel/module/sysfs.c)");

  // CPU nodes come first, one per NUMA node (kfd_crat.c's virtual CRAT).
  std::vector<int> cpus;
  for (const auto& n : nodes)
    if (!n.gpu) cpus.push_back(n.index);

  const int version = kernel_version(f.s.facts.kernel);
  // Between CPU nodes: QPI on Intel, HyperTransport on AMD (kfd_crat.c).
  auto cpuinfo = f.read("/proc/cpuinfo");
  const int cpu_link = cpuinfo && cpuinfo->find("GenuineIntel") != std::string::npos
                           ? kLinkQpi
                           : kLinkHyperTransport;
  std::set<std::uint32_t> taken;
  for (auto& n : nodes) {
    const std::string dir = kNodes + std::to_string(n.index) + "/";
    if (!n.gpu) {
      f.file(dir + "gpu_id", "0\n", "a CPU node (kfd_topology.c: no GPU, gpu_id 0)");
      f.file(dir + "name", "\n", "a CPU node: kfd_topology.c leaves its name empty");
      continue;
    }
    const auto location = value(n.props, "location_id");
    const auto domain = value(n.props, "domain");
    char bdf[16];
    std::snprintf(bdf, sizeof bdf, "%04x:%02x:%02x.%x", unsigned(domain & 0xffff),
                  unsigned(location >> 8 & 0xff), unsigned(location >> 3 & 0x1f),
                  unsigned(location & 7));
    n.bdf = bdf;
    const std::string pci = "/sys/bus/pci/devices/" + n.bdf + "/";
    const long long numa = decimal_file(f, pci + "numa_node");
    n.cpu_node = cpus.empty() ? 0
                              : cpus[numa >= 0 && numa < static_cast<long long>(cpus.size())
                                         ? static_cast<std::size_t>(numa)
                                         : 0];

    KfdGpuIdInputs in;
    in.devfn = static_cast<std::uint32_t>(location & 0xff);
    const long long sv = hex_value(f.read(pci + "subsystem_vendor"));
    const long long sd = hex_value(f.read(pci + "subsystem_device"));
    in.subsystem = static_cast<std::uint32_t>((sv < 0 ? 0 : sv) | (sd < 0 ? 0 : sd) << 16);
    in.domain = static_cast<std::uint32_t>(domain);
    const long long device = hex_value(f.read(pci + "device"));
    in.device = static_cast<std::uint32_t>(device < 0 ? value(n.props, "device_id") : device);
    in.bus = static_cast<std::uint32_t>(location >> 8 & 0xff);
    const long long vram = decimal_file(f, pci + "mem_info_vram_total");
    in.local_mem = vram < 0 ? 0 : static_cast<std::uint64_t>(vram);
    const auto xccs = value(n.props, "num_xcc");
    in.xcc = static_cast<std::uint32_t>((xccs == 0 ? 1 : xccs) << 16);
    in.crc = version >= 6010;
    in.with_xcc = in.crc || n.props.count("num_xcc");
    std::uint32_t id = kfd_gpu_id_hash(in) & 0xffff;
    while (id == 0 || taken.count(id)) id = (id + 1) & 0xffff;
    taken.insert(id);
    f.file(dir + "gpu_id", std::to_string(id) + "\n",
           std::string("derived as kfd_generate_gpu_id() does (") +
               (in.crc        ? "crc16, kernel 6.10 and later"
                : in.with_xcc ? "hash_32 XOR with the XCC word"
                              : "hash_32 XOR") +
               ") from the device's PCI ids, bus, subsystem and mem_info_vram_total" +
               (vram < 0 ? " (not recorded: 0)" : ""));
    // Every ASIC amdgpu finds through IP discovery has the asic name
    // "IP DISCOVERY", which kfd lower-cases (GFX 9.4, 10.3.6 and later, 11, 12).
    const auto gfx = value(n.props, "gfx_target_version");
    if ((gfx >= 90400 && gfx < 100000) || gfx >= 100306)
      f.file(dir + "name", "ip discovery\n",
             "amdgpu's asic name for an ASIC found through IP discovery, lower-cased by kfd");
  }

  // Links, in the order the kernel adds them: a CPU node's links to the other
  // CPU nodes (NUMA distance), then its reverse links to the GPUs on it; a GPU's
  // link to its CPU node, then XGMI links to the GPUs of its hive.
  for (const auto& n : nodes) {
    const std::string dir = kNodes + std::to_string(n.index) + "/";
    if (f.recorded(dir + "io_links")) continue;
    std::vector<std::string> links;
    if (!n.gpu) {
      for (int other : cpus)
        if (other != n.index)
          links.push_back(link_properties(cpu_link, n.index, other, kWeightRemoteNuma));
      for (const auto& g : nodes)
        if (g.gpu && g.cpu_node == n.index)
          links.push_back(link_properties(kLinkPcie, n.index, g.index, kWeightPcie));
    } else {
      links.push_back(link_properties(kLinkPcie, n.index, n.cpu_node, kWeightPcie));
      const auto hive = value(n.props, "hive_id");
      for (const auto& g : nodes)
        if (hive != 0 && g.gpu && g.index != n.index && value(g.props, "hive_id") == hive)
          links.push_back(link_properties(kLinkXgmi, n.index, g.index, kWeightXgmi));
    }
    const std::string why =
        n.gpu ? "kfd_crat.c: the GPU's PCIe link to its CPU node, XGMI links within its hive"
              : "kfd_crat.c: links to the other CPU nodes, reverse links to the GPUs on this one";
    // A count the properties state and these links do not meet: not the
    // kernel's topology, left as recorded.
    if (n.props.count("io_links_count") && value(n.props, "io_links_count") != links.size())
      continue;
    if (links.empty()) {
      f.s.files.emplace(dir + "io_links", FileEntry::of_dir({}));
      f.filled[dir + "io_links"] = why;
    }
    for (std::size_t i = 0; i < links.size(); ++i)
      f.file(dir + "io_links/" + std::to_string(i) + "/properties", links[i], why);
    if (n.props.count("p2p_links_count") && value(n.props, "p2p_links_count") == 0 &&
        !f.recorded(dir + "p2p_links")) {
      f.s.files.emplace(dir + "p2p_links", FileEntry::of_dir({}));
      f.filled[dir + "p2p_links"] = "the properties count p2p links: the kernel's folder for them";
    }
  }
}

}  // namespace hwaccel::sim
