// /sys/devices/system/cpu and /sys/devices/system/node as the kernel lays them
// out (Documentation/ABI/stable/sysfs-devices-system-cpu, .../sysfs-devices-node,
// drivers/base/cacheinfo.c), from the snapshot's CPU count, /proc/cpuinfo and
// /proc/meminfo. What cannot be known (cache sizes below the last level) is a
// typical value and says so in the fill's reasons.
#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <string_view>

#include "sim/kernel_fill_parts.h"
#include "src/system/host_resources.h"

namespace hwaccel::sim {
namespace {

// More CPUs than any kernel's NR_CPUS default (8192): a hostile count, not filled.
constexpr int kMaxCpus = 8192;
constexpr int kMaxNodes = 64;

long long number_after_colon(std::string_view line) {
  auto colon = line.find(':');
  if (colon == std::string_view::npos) return -1;
  auto v = line.substr(colon + 1);
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  long long n = -1;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  return ec == std::errc() ? n : -1;
}

std::string_view key_of(std::string_view line) {
  auto colon = line.find(':');
  auto key = line.substr(0, colon == std::string_view::npos ? 0 : colon);
  while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.remove_suffix(1);
  return key;
}

long long meminfo_kb(const std::optional<std::string>& text, std::string_view key) {
  if (!text) return 0;
  std::string_view t = *text;
  for (std::size_t at = 0; at < t.size();) {
    auto nl = t.find('\n', at);
    auto line = t.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
    if (key_of(line) == key) return std::max(0LL, number_after_colon(line));
    if (nl == std::string_view::npos) break;
    at = nl + 1;
  }
  return 0;
}

// cacheinfo's size_show: always kilobytes, "%uK".
std::string size_k(long long kb) {
  return std::to_string(kb) + "K";
}

}  // namespace

// The kernel's list form ("0-3,8"), written as the host-resources reader reads it.
std::string cpu_list(const std::vector<int>& cpus) {
  return cpu_list_text(cpus);
}

std::string cpu_mask(const std::vector<int>& cpus, int nr_cpus) {
  // bitmap_print_to_pagebuf: hex digits for nr_cpus bits, a comma every 32 bits.
  int digits = std::max(1, (nr_cpus + 3) / 4);
  std::string hex(digits, '0');
  for (int c : cpus) {
    if (c < 0 || c >= nr_cpus) continue;
    int d = digits - 1 - c / 4;
    int v = (hex[d] <= '9' ? hex[d] - '0' : hex[d] - 'a' + 10) | (1 << (c % 4));
    hex[d] = static_cast<char>(v < 10 ? '0' + v : 'a' + v - 10);
  }
  std::string out;
  for (int i = 0; i < digits; ++i) {
    if (i > 0 && (digits - i) % 8 == 0) out += ",";
    out += hex[i];
  }
  return out;
}

CpuModel cpu_model(const Filler& f) {
  CpuModel m;
  auto meminfo = f.read("/proc/meminfo");
  m.mem_kb = meminfo_kb(meminfo, "MemTotal");
  m.free_kb = meminfo_kb(meminfo, "MemFree");
  int n = static_cast<int>(std::min<long long>(f.s.facts.cpus, kMaxCpus + 1));
  if (n <= 0 || n > kMaxCpus) return m;
  // cpuinfo's blocks: processor N, physical id, core id (x86; arm64 has none).
  std::map<int, std::pair<int, int>> placed;  // cpu -> (socket, core id)
  if (auto info = f.read("/proc/cpuinfo")) {
    std::string_view t = *info;
    int cpu = -1, socket = -1, core = -1;
    auto flush = [&] {
      if (cpu >= 0 && cpu < n && socket >= 0 && core >= 0) placed[cpu] = {socket, core};
      cpu = socket = core = -1;
    };
    for (std::size_t at = 0; at <= t.size();) {
      auto nl = t.find('\n', at);
      auto line = t.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
      auto key = key_of(line);
      if (line.empty()) flush();
      if (key == "processor") cpu = static_cast<int>(std::min(number_after_colon(line), 1LL << 30));
      if (key == "physical id")
        socket = static_cast<int>(std::min(number_after_colon(line), 4096LL));
      if (key == "core id") core = static_cast<int>(std::min(number_after_colon(line), 1LL << 20));
      if (key == "cache size" && m.l3_kb == 0) m.l3_kb = std::max(0LL, number_after_colon(line));
      if (nl == std::string_view::npos) break;
      at = nl + 1;
    }
    flush();
  }
  m.cpus.resize(n);
  if (static_cast<int>(placed.size()) == n) {
    // Threads of one core: the order in which (socket, core) pairs repeat.
    std::map<std::pair<int, int>, int> seen;
    std::map<int, int> socket_index;
    for (auto& [cpu, sc] : placed) socket_index.emplace(sc.first, 0);
    int next = 0;
    for (auto& [id, idx] : socket_index) idx = next++;
    for (auto& [cpu, sc] : placed) {
      m.cpus[cpu] = {socket_index[sc.first], sc.second, seen[sc]++, 0};
      m.threads_per_core = std::max(m.threads_per_core, seen[sc]);
    }
    m.sockets = next;
    m.source = "facts.cpus and /proc/cpuinfo (physical id, core id)";
  } else {
    for (int c = 0; c < n; ++c) m.cpus[c] = {0, c, 0, 0};
    m.source = "facts.cpus (one socket, one thread per core: cpuinfo gives no topology)";
  }
  // NUMA nodes: one per socket, more where a recorded device sits on a higher node.
  int pci_nodes = 0;
  for (auto it = f.s.files.lower_bound("/sys/"); it != f.s.files.end(); ++it) {
    const std::string& p = it->first;
    if (p.compare(0, 5, "/sys/") != 0) break;
    if (p.size() < 10 || p.compare(p.size() - 10, 10, "/numa_node") != 0) continue;
    if (it->second.kind != FileEntry::Kind::content) continue;
    long long v = number_after_colon(":" + it->second.bytes);
    if (v >= 0 && v < kMaxNodes) pci_nodes = std::max(pci_nodes, static_cast<int>(v) + 1);
  }
  m.nodes = std::max(m.sockets, pci_nodes);
  int per_socket = std::max(1, m.nodes / m.sockets);
  std::map<int, std::vector<int>> cores_of_socket;
  for (auto& c : m.cpus) cores_of_socket[c.socket].push_back(c.core);
  for (auto& [s, cores] : cores_of_socket) {
    std::sort(cores.begin(), cores.end());
    cores.erase(std::unique(cores.begin(), cores.end()), cores.end());
  }
  for (auto& c : m.cpus) {
    const auto& cores = cores_of_socket[c.socket];
    int idx =
        static_cast<int>(std::lower_bound(cores.begin(), cores.end(), c.core) - cores.begin());
    c.node = std::min(m.nodes - 1,
                      c.socket * per_socket + idx * per_socket / static_cast<int>(cores.size()));
  }
  return m;
}

void fill_cpu_topology(Filler& f, const CpuModel& m) {
  const RememberFolders folders(f);  // only file() and link() below
  const int n = static_cast<int>(m.cpus.size());
  if (n == 0) return;
  const std::string cpu = "/sys/devices/system/cpu";
  const std::string all = cpu_list([&] {
    std::vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = i;
    return v;
  }());
  const std::string& why = m.source;
  f.file(cpu + "/possible", all + "\n", why);
  f.file(cpu + "/present", all + "\n", why);
  f.file(cpu + "/online", all + "\n", why);
  f.file(cpu + "/offline", "\n", why);
  // NR_CPUS - 1 of the distributions' kernels (CONFIG_NR_CPUS=8192).
  f.file(cpu + "/kernel_max", "8191\n", "a distribution kernel's CONFIG_NR_CPUS (not recorded)");

  std::map<std::pair<int, int>, std::vector<int>> by_core;
  std::map<int, std::vector<int>> by_socket, by_node;
  for (int i = 0; i < n; ++i) {
    by_core[{m.cpus[i].socket, m.cpus[i].core}].push_back(i);
    by_socket[m.cpus[i].socket].push_back(i);
    by_node[m.cpus[i].node].push_back(i);
  }
  const std::string typical = "typical sizes (cache geometry is not recorded)";
  struct Cache {
    int level;
    const char* type;
    long long kb;
    int ways;
    bool per_socket;
  };
  std::vector<Cache> caches = {{1, "Data", 48, 12, false},
                               {1, "Instruction", 32, 8, false},
                               {2, "Unified", 2048, 16, false}};
  if (m.l3_kb > 0) caches.push_back({3, "Unified", m.l3_kb, 15, true});
  // Per-core caches are numbered across the machine (lscpu counts their distinct ids).
  std::map<std::pair<int, int>, int> core_index;
  for (auto& [key, cpus] : by_core) core_index.emplace(key, static_cast<int>(core_index.size()));
  // Each group's mask and list once (a package's were made again for every file of
  // each of its CPUs: on a 224-CPU host a third of the fill's time).
  struct Group {
    std::string mask, list;
  };
  auto group = [n](const std::vector<int>& cpus) {
    return Group{cpu_mask(cpus, n) + "\n", cpu_list(cpus) + "\n"};
  };
  std::map<int, Group> socket_text;
  for (auto& [id, cpus] : by_socket) socket_text.emplace(id, group(cpus));
  for (int i = 0; i < n; ++i) {
    const auto& c = m.cpus[i];
    const std::string d = cpu + "/cpu" + std::to_string(i);
    const Group core_text = group(by_core[{c.socket, c.core}]);
    const Group& pkg_text = socket_text.at(c.socket);
    f.file(d + "/online", "1\n", why);
    const std::string t = d + "/topology/";
    f.file(t + "physical_package_id", std::to_string(c.socket) + "\n", why);
    f.file(t + "die_id", "0\n", why + "; one die per package");
    f.file(t + "cluster_id", std::to_string(c.core) + "\n", why + "; one core per cluster");
    f.file(t + "core_id", std::to_string(c.core) + "\n", why);
    for (const char* name : {"core_cpus", "thread_siblings", "cluster_cpus"}) {
      f.file(t + name, core_text.mask, why);
      f.file(t + name + "_list", core_text.list, why);
    }
    for (const char* name : {"package_cpus", "core_siblings", "die_cpus"}) {
      f.file(t + name, pkg_text.mask, why);
      f.file(t + name + "_list", pkg_text.list, why);
    }
    for (std::size_t k = 0; k < caches.size(); ++k) {
      const Cache& cache = caches[k];
      const std::string x = d + "/cache/index" + std::to_string(k) + "/";
      const Group& shared = cache.per_socket ? pkg_text : core_text;
      const std::string from =
          cache.per_socket ? "/proc/cpuinfo cache size (shared by the package)" : typical;
      long long sets = cache.kb * 1024 / 64 / cache.ways;
      f.file(x + "level", std::to_string(cache.level) + "\n", from);
      f.file(x + "type", std::string(cache.type) + "\n", from);
      f.file(x + "size", size_k(cache.kb) + "\n", from);
      f.file(x + "coherency_line_size", "64\n", from);
      f.file(x + "ways_of_associativity", std::to_string(cache.ways) + "\n", from);
      f.file(x + "number_of_sets", std::to_string(sets) + "\n", from);
      f.file(x + "physical_line_partition", "1\n", from);
      f.file(x + "id",
             std::to_string(cache.per_socket ? c.socket : core_index[{c.socket, c.core}]) + "\n",
             from);
      f.file(x + "shared_cpu_map", shared.mask, from);
      f.file(x + "shared_cpu_list", shared.list, from);
    }
  }

  const std::string node = "/sys/devices/system/node";
  std::vector<int> node_ids(m.nodes), with_cpu, with_mem;
  for (int i = 0; i < m.nodes; ++i) node_ids[i] = i;
  for (auto& [id, cpus] : by_node) with_cpu.push_back(id);
  const long long per_node_kb = m.mem_kb / m.nodes, free_kb = m.free_kb / m.nodes;
  if (per_node_kb > 0) with_mem = node_ids;
  const std::string nwhy =
      "one NUMA node per socket (and per recorded device numa_node); "
      "memory split evenly";
  f.file(node + "/possible", cpu_list(node_ids) + "\n", nwhy);
  f.file(node + "/online", cpu_list(node_ids) + "\n", nwhy);
  f.file(node + "/has_cpu", cpu_list(with_cpu) + "\n", nwhy);
  f.file(node + "/has_memory", cpu_list(with_mem) + "\n", nwhy);
  f.file(node + "/has_normal_memory", cpu_list(with_mem) + "\n", nwhy);
  for (int id = 0; id < m.nodes; ++id) {
    const std::string d = node + "/node" + std::to_string(id);
    const auto& cpus = by_node[id];
    f.file(d + "/cpulist", cpu_list(cpus) + "\n", nwhy);
    f.file(d + "/cpumap", cpu_mask(cpus, n) + "\n", nwhy);
    // The kernel's node meminfo lines: "Node N Key:" padded, then the value in kB.
    auto line = [&](const std::string& key, long long kb) {
      // node_read_meminfo: "Node %d MemTotal:       %8lu kB" (the key padded to 16).
      std::string k = key + ":", value = std::to_string(kb);
      return "Node " + std::to_string(id) + " " + k +
             std::string(k.size() < 16 ? 16 - k.size() : 1, ' ') +
             std::string(value.size() < 8 ? 8 - value.size() : 0, ' ') + value + " kB\n";
    };
    f.file(d + "/meminfo",
           line("MemTotal", per_node_kb) + line("MemFree", free_kb) +
               line("MemUsed", per_node_kb - free_kb),
           nwhy);
    // Without an ACPI SLIT the kernel reports LOCAL_DISTANCE 10 and REMOTE_DISTANCE 20.
    std::string dist;
    for (int o = 0; o < m.nodes; ++o) dist += (o ? " " : "") + std::string(o == id ? "10" : "20");
    f.file(d + "/distance", dist + "\n", "the kernel's distances without an ACPI SLIT");
    for (int c : cpus)
      f.link(d + "/cpu" + std::to_string(c), "../../cpu/cpu" + std::to_string(c), nwhy);
    for (int c : cpus)
      f.link(cpu + "/cpu" + std::to_string(c) + "/node" + std::to_string(id),
             "../../node/node" + std::to_string(id), nwhy);
  }
}

}  // namespace hwaccel::sim
