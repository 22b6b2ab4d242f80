#include "sim/synth.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "sim/synth_parts.h"

namespace hwaccel::sim {
namespace detail {

std::uint64_t mix(std::uint64_t seed, std::uint64_t salt) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (salt + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::string hex_id(std::uint32_t value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "0x%0*x", digits, value);
  return buf;
}

std::string cpulist_of_node(const CpuSpec& cpu, int node) {
  const int per_socket = cpu.clusters.empty() ? cpu.cores : cpu.logical_cpus();
  const int sockets = cpu.clusters.empty() ? cpu.sockets : 1;
  const int threads = cpu.clusters.empty() ? cpu.threads : 1;
  if (node < 0) node = 0;
  if (node >= sockets) node = sockets - 1;
  std::string list;
  for (int t = 0; t < threads; ++t) {
    const int first = t * sockets * per_socket + node * per_socket;
    list += (list.empty() ? "" : ",") + std::to_string(first) + "-" +
            std::to_string(first + per_socket - 1);
  }
  return list;
}

namespace {

std::uint64_t label_seed(const HostSpec& spec) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the label
  for (unsigned char c : spec.label) h = (h ^ c) * 1099511628211ull;
  return mix(h, spec.seed);
}

std::string address_of(int domain, int bus) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04x:%02x:00.0", domain, bus);
  return buf;
}

}  // namespace

Plan make_plan(const HostSpec& spec) {
  Plan plan;
  plan.spec = &spec;
  plan.seed = label_seed(spec);
  std::set<std::string> used;
  for (const auto& a : spec.accelerators)
    for (const auto& b : a.bus) used.insert(b);
  int next_bus = 0x18;
  int soc_domain = 0;
  for (const auto& a : spec.accelerators) {
    const Sku* sku = find_sku(a.sku);
    if (!sku) continue;  // the reader refuses unknown SKUs
    for (int i = 0; i < a.count; ++i) {
      Device d;
      d.sku = sku;
      d.spec = &a;
      if (!a.bus.empty()) {
        d.address = a.bus[i];
      } else if (sku->id == "gb10" || sku->id == "gh200") {
        // On-package GPUs sit alone in a PCI domain of their own (GB10 000f, GH200 0009).
        d.address = address_of((sku->id == "gb10" ? 0x000f : 0x0009) + soc_domain++, 0x01);
      } else {
        while (used.count(address_of(0, next_bus))) next_bus += 0x10;
        // Past bus ff the address would be no PCI address ("0000:108:00.0"):
        // take the lowest free bus instead (the reader caps a host at 128 devices).
        for (int b = 0x11; next_bus > 0xff && b <= 0xff; ++b)
          if (!used.count(address_of(0, b))) next_bus = b;
        d.address = address_of(0, next_bus);
        used.insert(d.address);
        next_bus = next_bus >= 0xe0 ? 0x11 + (next_bus & 0x0f) : next_bus + 0x10;
      }
      if (!a.numa.empty())
        d.numa = a.numa[i];
      else if (spec.cpu.sockets > 1)
        d.numa = i * spec.cpu.sockets / a.count;
      (sku->apple       ? plan.apple
       : sku->qualcomm  ? plan.qualcomm
       : sku->intel_npu ? plan.npu
       : sku->xdna      ? plan.npu
       : sku->intel_gpu ? plan.intel_gpu
       : sku->neuron    ? plan.neuron
       : sku->gaudi     ? plan.gaudi
       : sku->tpu       ? plan.tpu
       : sku->nvidia    ? plan.nvidia
                        : plan.amd)
          .push_back(d);
    }
  }
  auto by_address = [](const Device& x, const Device& y) { return x.address < y.address; };
  std::stable_sort(plan.nvidia.begin(), plan.nvidia.end(), by_address);
  std::stable_sort(plan.amd.begin(), plan.amd.end(), by_address);
  std::stable_sort(plan.tpu.begin(), plan.tpu.end(), by_address);
  std::stable_sort(plan.neuron.begin(), plan.neuron.end(), by_address);
  std::stable_sort(plan.qualcomm.begin(), plan.qualcomm.end(), by_address);
  std::stable_sort(plan.npu.begin(), plan.npu.end(), by_address);
  std::stable_sort(plan.intel_gpu.begin(), plan.intel_gpu.end(), by_address);
  return plan;
}

int next_accel_index(const Snapshot& s) {
  int n = 0;
  while (s.files.count("/sys/class/accel/accel" + std::to_string(n) + "/device")) ++n;
  return n;
}

ToolEntry not_found_tool(std::vector<std::string> argv) {
  ToolEntry t;
  t.argv = std::move(argv);
  t.run.outcome = ToolOutcome::not_found;
  return t;
}

bool tool_installed(const HostSpec& spec, const std::string& tool, bool by_default) {
  if (!spec.tools) return by_default;
  return std::find(spec.tools->begin(), spec.tools->end(), tool) != spec.tools->end();
}

}  // namespace detail

Snapshot synthesize(const HostSpec& spec) {
  Snapshot s;
  s.host.label = spec.label;
  s.host.origin = "synthesized";
  s.host.recorder = "hwsim synth";
  s.facts.os = spec.os;
  s.facts.arch = spec.arch;
  s.facts.kernel = spec.kernel;
  s.facts.page_size = spec.os == "darwin" ? 16384 : 4096;
  s.facts.cpus = spec.cpu.logical_cpus();
  s.facts.hostname = spec.hostname;
  s.env["PATH"] =
      spec.os == "darwin"
          ? "/opt/homebrew/bin:/opt/homebrew/sbin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
          : "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/games:"
            "/usr/local/games:/snap/bin";
  for (const auto& [k, v] : spec.env) s.env[k] = v;
  if (!spec.dmi_vendor.empty())
    s.files["/sys/class/dmi/id/sys_vendor"] = FileEntry::of_content(spec.dmi_vendor + "\n");
  if (!spec.dmi_product.empty())
    s.files["/sys/class/dmi/id/product_name"] = FileEntry::of_content(spec.dmi_product + "\n");

  const detail::Plan plan = detail::make_plan(spec);
  detail::add_nvidia(plan, s);
  if (spec.os == "darwin") {
    // macOS has no /proc and no /sys: every Linux path the probes look up is absent.
    for (const char* path :
         {"/proc/cpuinfo", "/proc/meminfo", "/sys/class/drm", "/sys/bus/pci/devices"})
      s.files[path] = FileEntry::of_absent();
    detail::add_apple(plan, s);
  } else {
    detail::add_cpu_and_memory(plan, s);
    detail::add_vm(plan, s);
    detail::add_amd(plan, s);
    detail::add_tpu(plan, s);
    detail::add_gaudi(plan, s);
    detail::add_neuron(plan, s);
    detail::add_qualcomm(plan, s);
    detail::add_npu(plan, s);
    detail::add_intel_gpu(plan, s);
  }
  detail::add_vulkan(plan, s);
  return s;
}

}  // namespace hwaccel::sim
