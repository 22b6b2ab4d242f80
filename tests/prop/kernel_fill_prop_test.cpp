// Generated hosts (sockets x cores x threads, devices on NUMA nodes) filled with
// the kernel's CPU and NUMA trees satisfy what lscpu, hwloc and numactl assume:
// every CPU is in exactly one node, a core's threads share one package and list
// each other, the masks say what the lists say, nodes cover the devices' nodes,
// and the nodes' memory adds up to MemTotal.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "sim/kernel_fill.h"
#include "sim/kernel_fill_parts.h"

namespace hwaccel::sim {
namespace {

std::string read(const Snapshot& s, const std::string& path) {
  auto it = s.files.find(path);
  RC_ASSERT(it != s.files.end());
  return it->second.bytes;
}

// "0-3,8" -> {0,1,2,3,8}
std::set<int> parse_list(const std::string& text) {
  std::set<int> out;
  std::size_t at = 0;
  while (at < text.size() && text[at] != '\n') {
    std::size_t end = text.find_first_of(",\n", at);
    std::string part = text.substr(at, end - at);
    auto dash = part.find('-');
    int a = std::stoi(part.substr(0, dash)),
        b = dash == std::string::npos ? a : std::stoi(part.substr(dash + 1));
    for (int i = a; i <= b; ++i) out.insert(i);
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

RC_GTEST_PROP(KernelFill, GeneratedHostsSatisfyTopologyInvariants, ()) {
  const int sockets = *rc::gen::inRange(1, 5);
  const int cores = *rc::gen::inRange(1, 13);
  const int threads = *rc::gen::inRange(1, 3);
  const int gpu_node = *rc::gen::inRange(-1, 2 * sockets);
  const long long mem_kb = *rc::gen::inRange(1 << 20, 1 << 30);
  const int n = sockets * cores * threads;
  Snapshot s;
  s.facts.os = "linux";
  s.facts.cpus = n;
  // Linux's x86 numbering: first threads of every socket, then their siblings.
  std::string info;
  for (int cpu = 0; cpu < n; ++cpu) {
    int rem = cpu % (sockets * cores);
    info += "processor\t: " + std::to_string(cpu) +
            "\nphysical id\t: " + std::to_string(rem / cores) +
            "\ncore id\t\t: " + std::to_string(rem % cores) + "\ncache size\t: 32768 KB\n\n";
  }
  s.files["/proc/cpuinfo"] = FileEntry::of_content(info);
  s.files["/proc/meminfo"] =
      FileEntry::of_content("MemTotal:       " + std::to_string(mem_kb) + " kB\n");
  s.files["/sys/bus/pci/devices/0000:1b:00.0/vendor"] = FileEntry::of_content("0x10de\n");
  s.files["/sys/bus/pci/devices/0000:1b:00.0/device"] = FileEntry::of_content("0x2330\n");
  s.files["/sys/bus/pci/devices/0000:1b:00.0/numa_node"] =
      FileEntry::of_content(std::to_string(gpu_node) + "\n");
  fill_implied(s);

  const std::string cpu = "/sys/devices/system/cpu/", node = "/sys/devices/system/node/";
  std::set<int> all;
  for (int i = 0; i < n; ++i) all.insert(i);
  RC_ASSERT(parse_list(read(s, cpu + "possible")) == all);
  RC_ASSERT(parse_list(read(s, cpu + "online")) == all);
  std::set<int> packages;
  for (int i = 0; i < n; ++i) {
    const std::string t = cpu + "cpu" + std::to_string(i) + "/topology/";
    auto siblings = parse_list(read(s, t + "thread_siblings_list"));
    RC_ASSERT(siblings.count(i) == 1u);
    RC_ASSERT(static_cast<int>(siblings.size()) == threads);
    RC_ASSERT(static_cast<int>(parse_list(read(s, t + "package_cpus_list")).size()) ==
              cores * threads);
    std::vector<int> v(siblings.begin(), siblings.end());
    RC_ASSERT(read(s, t + "thread_siblings") == cpu_mask(v, n) + "\n");
    for (int sib : siblings)
      RC_ASSERT(read(s, cpu + "cpu" + std::to_string(sib) + "/topology/physical_package_id") ==
                read(s, t + "physical_package_id"));
    packages.insert(std::stoi(read(s, t + "physical_package_id")));
  }
  RC_ASSERT(static_cast<int>(packages.size()) == sockets);
  auto nodes = parse_list(read(s, node + "online"));
  RC_ASSERT(static_cast<int>(nodes.size()) >= sockets);
  if (gpu_node >= 0) RC_ASSERT(nodes.count(gpu_node) == 1u);
  std::set<int> covered;
  long long total_kb = 0;
  for (int id : nodes) {
    const std::string d = node + "node" + std::to_string(id) + "/";
    for (int c : parse_list(read(s, d + "cpulist"))) RC_ASSERT(covered.insert(c).second);
    const std::string meminfo = read(s, d + "meminfo");
    auto at = meminfo.find("MemTotal:");
    RC_ASSERT(at != std::string::npos);
    total_kb += std::stoll(meminfo.substr(at + 9));
  }
  RC_ASSERT(covered == all);
  RC_ASSERT(mem_kb - total_kb >= 0);
  RC_ASSERT(mem_kb - total_kb < static_cast<long long>(nodes.size()));
  // The device's local CPUs are its node's.
  // (Where the link says: below its root port, sim/pci_layout.h.)
  const FileEntry& link = s.files.at("/sys/bus/pci/devices/0000:1b:00.0");
  RC_ASSERT(link.kind == FileEntry::Kind::link);
  RC_ASSERT(link.target.rfind("../../../devices/", 0) == 0u);
  const std::string dev = "/sys/" + link.target.substr(9) + "/";
  if (gpu_node >= 0)
    RC_ASSERT(read(s, dev + "local_cpulist") ==
              read(s, node + "node" + std::to_string(gpu_node) + "/cpulist"));
  RC_ASSERT(read(s, dev + "config").size() == 256u);
}

}  // namespace
}  // namespace hwaccel::sim
