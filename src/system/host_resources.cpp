#include "src/system/host_resources.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>

#include "src/host/cpuinfo_keys.h"
#include "src/host/tree_facts.h"
#include "src/probe/gpu_numa_memory.h"
#include "src/probe/proc_meminfo.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr const char* kCpuDir = "/sys/devices/system/cpu";
constexpr const char* kNodeDir = "/sys/devices/system/node";

std::optional<long> parse_long(std::string_view s) {
  s = trim(s);
  long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

struct Place {
  std::string package;
  std::optional<std::string> core;  // unknown where sysfs tells only the package
};

// A sibling list as a key: "0-3" and "0,1,2,3" name the same CPUs.
std::optional<std::string> list_key(Host& host, const std::string& path) {
  auto text = host.read(path);
  if (!text.ok()) return std::nullopt;
  auto ids = parse_cpu_list(*text);
  if (!ids || ids->empty()) return std::nullopt;
  return cpu_list_text(*ids);
}

// Per CPU, as lscpu and hwloc group them: the package is the set of CPUs that
// share it (package_cpus_list, core_siblings_list before 5.4) and the core the
// set that shares a core (core_cpus_list, thread_siblings_list): ids repeat
// across the dies of one AMD package and are -1 on POWER and s390. Else the
// ids (physical_package_id, core_id), else /proc/cpuinfo's "physical id" /
// "core id" (through `cpuinfo`, shared with online_cpus). Empty when the
// package is unknown for any CPU.
std::map<int, Place> read_places(Host& host, const std::vector<int>& cpus, std::string& source,
                                 CpuinfoKeys& cpuinfo) {
  std::map<int, Place> places;
  bool lists = true, ids = true, core_lists = true, core_ids = true;
  struct Raw {
    std::optional<std::string> package_list, core_list;
    std::optional<long> package_id, core_id;
  };
  std::map<int, Raw> raw;
  for (int cpu : cpus) {
    std::string dir = std::string(kCpuDir) + "/cpu" + std::to_string(cpu) + "/topology/";
    Raw& r = raw[cpu];
    r.package_list = list_key(host, dir + "package_cpus_list");
    if (!r.package_list) r.package_list = list_key(host, dir + "core_siblings_list");
    r.core_list = list_key(host, dir + "core_cpus_list");
    if (!r.core_list) r.core_list = list_key(host, dir + "thread_siblings_list");
    auto package = host.read(dir + "physical_package_id");
    if (package.ok()) r.package_id = parse_long(*package);
    if (r.package_id && *r.package_id < 0) r.package_id.reset();  // -1: not known
    auto core = host.read(dir + "core_id");
    if (core.ok()) r.core_id = parse_long(*core);
    lists = lists && r.package_list;
    ids = ids && r.package_id;
    core_lists = core_lists && r.core_list;
    core_ids = core_ids && r.core_id;
    if (!lists && !ids) break;
  }
  if (!cpus.empty() && (lists || ids)) {
    for (const auto& [cpu, r] : raw) {
      Place p;
      p.package = lists ? "set " + *r.package_list : "id " + std::to_string(*r.package_id);
      // Bulldozer's kernels list a compute unit's two cores as thread siblings
      // while their core_ids differ: hwloc counts two cores there, and so does this.
      if (core_lists)
        p.core = "set " + *r.core_list + (core_ids ? " core " + std::to_string(*r.core_id) : "");
      else if (core_ids)
        p.core = p.package + " core " + std::to_string(*r.core_id);
      places[cpu] = p;
    }
    source = std::string(kCpuDir) + "/cpuN/topology (" +
             (lists ? "package sibling lists" : "physical_package_id") + ", " +
             (core_lists ? "core sibling lists"
              : core_ids ? "core_id"
                         : "no core information") +
             ")";
    if (core_lists || core_ids) return places;
  }
  std::map<int, Place> packages_only = std::move(places);
  places.clear();
  const auto* keys = cpuinfo.get();
  auto only_packages = [&] {
    if (packages_only.empty()) source.clear();
    return packages_only;
  };
  if (!keys) return only_packages();
  std::optional<long> processor, package, core;
  auto flush = [&] {
    if (processor && package && core)
      places[static_cast<int>(*processor)] =
          Place{"id " + std::to_string(*package),
                "id " + std::to_string(*package) + " core " + std::to_string(*core)};
    processor.reset();
    package.reset();
    core.reset();
  };
  for (const CpuinfoKey& key : *keys) {
    if (key.kind == CpuinfoKey::Kind::blank) {
      flush();
      continue;
    }
    auto value = parse_long(key.value);
    if (key.kind == CpuinfoKey::Kind::processor) {
      if (processor) flush();
      processor = value;
    }
    if (key.kind == CpuinfoKey::Kind::package) package = value;
    if (key.kind == CpuinfoKey::Kind::core) core = value;
  }
  flush();
  for (int cpu : cpus)
    if (!places.count(cpu)) return only_packages();
  source = "/proc/cpuinfo (physical id, core id)";
  return places;
}

CpuCounts count(const std::vector<int>& cpus, const std::map<int, Place>& places) {
  CpuCounts c;
  c.threads = static_cast<int>(cpus.size());
  if (places.empty() || cpus.empty()) return c;
  // Distinct names counted over views, sorted (224 CPUs: no set of copied strings).
  std::vector<std::string_view> packages, cores;
  packages.reserve(cpus.size());
  cores.reserve(cpus.size());
  bool all_cores = true;
  for (int cpu : cpus) {
    auto it = places.find(cpu);
    if (it == places.end()) return c;
    packages.push_back(it->second.package);
    if (it->second.core)
      cores.push_back(*it->second.core);
    else
      all_cores = false;
  }
  auto distinct = [](std::vector<std::string_view>& names) {
    std::sort(names.begin(), names.end());
    return static_cast<int>(std::unique(names.begin(), names.end()) - names.begin());
  };
  c.sockets = distinct(packages);
  if (all_cores) c.cores = distinct(cores);
  return c;
}

std::vector<int> intersect(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / double(1ull << 30));
  return buf;
}

}  // namespace

std::optional<std::uint64_t> parse_node_meminfo_total(std::string_view text) {
  // Drop the "Node N " prefix of each line: what is left reads like /proc/meminfo.
  std::string plain;
  for (auto line : split_lines(text)) {
    std::string_view rest = trim(line);
    if (rest.substr(0, 5) == "Node ") {
      rest.remove_prefix(5);
      auto space = rest.find(' ');
      if (space == std::string_view::npos) continue;
      rest.remove_prefix(space + 1);
    }
    plain.append(rest).push_back('\n');
  }
  return parse_proc_meminfo(plain).total_bytes;
}

std::string cpu_list_text(const std::vector<int>& ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(ids[i]);
    if (j > i) out += "-" + std::to_string(ids[j]);
    i = j + 1;
  }
  return out;
}

std::string cpu_quota_text(const CpuQuota& q) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f", q.cpus());
  std::string n = buf;
  while (n.back() == '0') n.pop_back();
  if (n.back() == '.') n.pop_back();
  std::string text = "CPU time of " + n + (n == "1" ? " CPU" : " CPUs");
  if (n.find('.') != std::string::npos) text += ", counted as " + std::to_string(q.whole_cpus());
  return text;
}

std::string cpu_counts_text(const CpuCounts& c) {
  auto plural = [](int n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
  };
  std::string out;
  if (c.sockets) out += plural(*c.sockets, "socket") + ", ";
  if (c.cores) out += plural(*c.cores, "core") + ", ";
  return out + plural(c.threads, "thread");
}

HostResources scan_host_resources(Host& host, std::vector<Warning>& warnings) {
  HostResources r;
  TreeFiles files = tree_files_of(host);
  CpuinfoKeys cpuinfo(files);  // one pass over /proc/cpuinfo for both readers
  r.online = online_cpus(files, r.online_source, &cpuinfo);
  // A recording keeps the machine's CPU count in its facts; a /proc/cpuinfo that
  // lists fewer (shortened by hand, or cut) does not make the machine smaller.
  if (const auto n = host.facts().cpus; r.online_source == "/proc/cpuinfo processor lines" &&
                                        n > std::int64_t(r.online.size()) && n <= 65536) {
    r.online_source = "facts.cpus (/proc/cpuinfo lists " + std::to_string(r.online.size()) + ")";
    r.online.clear();
    for (int cpu = 0; cpu < n; ++cpu) r.online.push_back(cpu);
  }
  auto places = read_places(host, r.online, r.topology_source, cpuinfo);
  r.cpus = count(r.online, places);

  // NUMA nodes and their memory (the per-node meminfo files).
  std::map<int, std::optional<std::uint64_t>> nodes;
  for (const auto& name : files.list(kNodeDir)) {
    if (name.size() < 5 || name.compare(0, 4, "node") != 0) continue;
    auto id = parse_u64(std::string_view(name).substr(4));
    if (!id || *id >= 65536 || std::to_string(*id) != name.substr(4)) continue;
    auto text = files.read(std::string(kNodeDir) + "/" + name + "/meminfo");
    nodes[static_cast<int>(*id)] = text ? parse_node_meminfo_total(*text) : std::nullopt;
  }
  if (!nodes.empty()) {
    r.numa_nodes = static_cast<int>(nodes.size());
    r.numa_source = std::string(kNodeDir) + "/nodeN";
  } else if (auto system = files.list("/sys/devices/system"), cpu = files.list(kCpuDir);
             std::count(system.begin(), system.end(), "cpu") &&
             !std::count(system.begin(), system.end(), "node") &&
             std::count(cpu.begin(), cpu.end(), "cpu0")) {
    // A kernel built without NUMA has no node folder beside cpu/ (a sysfs with
    // cpuN folders; `hwsim run` writes a lone cpu/online, which tells nothing): one node.
    r.numa_nodes = 1;
    r.numa_source = std::string("no ") + kNodeDir + ": one node";
  }
  bool all_node_memory = !nodes.empty();
  std::uint64_t node_sum = 0;
  for (const auto& [id, bytes] : nodes) {
    if (!bytes) all_node_memory = false;
    node_sum += bytes.value_or(0);
  }

  if (auto text = host.read("/proc/meminfo"); text.ok()) {
    r.memory_bytes = parse_proc_meminfo(*text).total_bytes;
    if (r.memory_bytes) r.memory_source = "/proc/meminfo MemTotal";
  }
  if (!r.memory_bytes && all_node_memory) {
    // What the kernel itself sums for MemTotal.
    r.memory_bytes = node_sum;
    r.memory_source = "no /proc/meminfo: the sum of " + std::to_string(nodes.size()) + " " +
                      kNodeDir + "/nodeN/meminfo MemTotal";
  }

  // GPU memory onlined as NUMA nodes is in MemTotal but not the host's: the same
  // exclusion as cpu:0's (src/probe/cpu_probe.cpp), so the two figures agree.
  if (r.memory_bytes) {
    const auto gpu = gpu_memory_in_host(gpu_memory_nodes(host));
    if (!gpu.nodes.empty() && gpu.total_bytes < *r.memory_bytes) {
      *r.memory_bytes -= gpu.total_bytes;
      r.memory_source += " less " + numa_nodes_text(gpu.nodes) + " (GPU memory)";
    }
  }

  // What this process may use.
  r.cgroup = read_cgroup_limits(host);
  for (const auto& note : r.cgroup.notes) warnings.push_back({"system", note});
  const std::string cgroup_name =
      "cgroup v" + std::to_string(r.cgroup.version) + " " + r.cgroup.path;
  r.usable = r.online;
  if (r.cgroup.cpus && !r.online.empty()) {
    r.usable = intersect(r.online, *r.cgroup.cpus);
    if (r.usable.size() < r.online.size())
      r.limited_by.push_back(cgroup_name + ": " + r.cgroup.cpus_file + " " +
                             cpu_list_text(*r.cgroup.cpus));
  }
  r.usable_cpus = count(r.usable, places);
  r.usable_cpu_count = static_cast<int>(r.usable.size());
  if (const auto& q = r.cgroup.cpu_quota;
      q && !r.usable.empty() && q->whole_cpus() < r.usable_cpu_count) {
    r.usable_cpu_count = q->whole_cpus();
    r.limited_by.push_back(cgroup_name + ": " + r.cgroup.cpu_quota_file + " " +
                           std::to_string(q->quota_us) + " " + std::to_string(q->period_us) + " (" +
                           cpu_quota_text(*q) + " of the " + std::to_string(r.usable.size()) +
                           " CPUs it may run on)");
  }
  r.usable_numa_nodes = r.numa_nodes;
  r.usable_memory_bytes = r.memory_bytes;
  if (r.cgroup.mems && !nodes.empty()) {
    std::vector<int> ids;
    for (const auto& [id, bytes] : nodes) ids.push_back(id);
    auto allowed = intersect(ids, *r.cgroup.mems);
    if (allowed.size() < ids.size()) {
      r.usable_numa_nodes = static_cast<int>(allowed.size());
      std::uint64_t sum = 0;
      bool known = all_node_memory;
      for (int id : allowed) sum += nodes[id].value_or(0);
      if (known && r.usable_memory_bytes)
        r.usable_memory_bytes = std::min(*r.usable_memory_bytes, sum);
      r.limited_by.push_back(cgroup_name + ": " + r.cgroup.mems_file + " " +
                             cpu_list_text(*r.cgroup.mems) + " (memory of " +
                             std::to_string(allowed.size()) + " of " + std::to_string(ids.size()) +
                             " NUMA nodes)");
    }
  }
  if (r.cgroup.memory_limit &&
      (!r.usable_memory_bytes || *r.cgroup.memory_limit < *r.usable_memory_bytes)) {
    r.usable_memory_bytes = r.cgroup.memory_limit;
    r.limited_by.push_back(cgroup_name + ": " + r.cgroup.memory_file + " " +
                           gib(*r.cgroup.memory_limit));
  }
  return r;
}

}  // namespace hwaccel
