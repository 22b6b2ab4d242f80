// What an NVIDIA host shows: the GPUs on the PCI bus, the kernel module's
// /proc/driver/nvidia files and /dev nodes, and nvidia-smi's answers (the
// --query-gpu CSV, -L with MIG devices, topo -m, the addressing-mode query, -q
// where MIG is on or the driver predates that query) in
// the formats of the real captures (../shared/real-captures) and fixtures.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "sim/mutate.h"
#include "sim/synth_parts.h"
#include "src/model/number_text.h"
#include "src/probe/cuda_memory_facts.h"
#include "src/probe/cuda_probe.h"
#include "src/probe/nvidia_smi_csv.h"
#include "src/probe/nvidia_smi_list.h"

namespace hwaccel::sim::detail {
namespace {

struct Gpu {
  const Device* device;
  int index;
  std::string uuid;
  std::uint64_t total_mib, used_mib, free_mib;
};

std::string uuid_of(std::uint64_t seed, int salt, const char* prefix) {
  const std::uint64_t a = mix(seed, std::uint64_t(salt) * 2 + 11);
  const std::uint64_t b = mix(seed, std::uint64_t(salt) * 2 + 12);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s-%08x-%04x-%04x-%04x-%012llx", prefix, unsigned(a >> 32),
                unsigned((a >> 16) & 0xffff), unsigned(a & 0xffff), unsigned(b >> 48),
                static_cast<unsigned long long>(b & 0xffffffffffffull));
  return buf;
}

// "0000:1b:00.0" -> "00000000:1B:00.0", as nvidia-smi prints bus ids.
std::string smi_bus_id(const std::string& address) {
  std::string out = "0000" + address;
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string driver_version(const Plan& plan) {
  auto it = plan.spec->drivers.find("nvidia");
  if (it != plan.spec->drivers.end() && !it->second.version.empty()) return it->second.version;
  return plan.nvidia.empty() ? std::string("550.54.15") : std::string(plan.nvidia[0].sku->driver);
}

std::string cell(const Gpu& g, const std::string& field, const std::string& driver) {
  const Sku& sku = *g.device->sku;
  const bool unified = sku.memory_mib == 0;
  if (field == "index") return std::to_string(g.index);
  if (field == "uuid") return g.uuid;
  if (field == "pci.bus_id") return smi_bus_id(g.device->address);
  if (field == "name") return std::string(sku.name);
  if (field == "memory.total") return unified ? "[N/A]" : std::to_string(g.total_mib) + " MiB";
  if (field == "memory.used") return unified ? "[N/A]" : std::to_string(g.used_mib) + " MiB";
  if (field == "memory.free") return unified ? "[N/A]" : std::to_string(g.free_mib) + " MiB";
  if (field == "compute_cap") return std::string(sku.compute_cap);
  if (field == "driver_version") return driver;
  if (field == "addressing_mode") return sku.ats ? "ATS" : "None";
  // An idle GPU of the SKU as a real capture shows it (sku_catalog.h, IdleFigures).
  const IdleFigures& idle = sku.idle;
  std::string_view figure = field == "temperature.gpu"           ? idle.temperature
                            : field == "power.draw"              ? idle.power_draw
                            : field == "power.limit"             ? idle.power_limit
                            : field == "pstate"                  ? idle.pstate
                            : field == "utilization.gpu"         ? idle.utilization
                            : field == "utilization.memory"      ? idle.utilization
                            : field == "clocks.current.graphics" ? idle.graphics_clock
                            : field == "clocks.current.sm"       ? idle.sm_clock
                            : field == "clocks.current.memory"   ? idle.memory_clock
                                                                 : std::string_view();
  return figure.empty() ? "[N/A]" : std::string(figure);
}

std::string header(const std::string& field) {
  if (field.rfind("memory.", 0) == 0) return field + " [MiB]";
  if (field.rfind("power.", 0) == 0) return field + " [W]";
  if (field.rfind("utilization.", 0) == 0) return field + " [%]";
  if (field.rfind("clocks.", 0) == 0) return field + " [MHz]";
  return field;
}

// What a monitoring agent reads, for the GPUs whose SKU has idle figures from a
// real capture: the argv of a --query-gpu a real host would answer with them.
const std::vector<std::string> kIdleFields = {"index",
                                              "pci.bus_id",
                                              "temperature.gpu",
                                              "power.draw",
                                              "power.limit",
                                              "pstate",
                                              "utilization.gpu",
                                              "utilization.memory",
                                              "clocks.current.graphics",
                                              "clocks.current.sm",
                                              "clocks.current.memory"};

std::string query_csv(const std::vector<Gpu>& gpus, const std::vector<std::string>& fields,
                      const std::string& driver) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? ", " : "") + header(fields[i]);
  out += "\n";
  for (const auto& g : gpus) {
    for (std::size_t i = 0; i < fields.size(); ++i)
      out += (i ? ", " : "") + cell(g, fields[i], driver);
    out += "\n";
  }
  return out;
}

std::string list_output(const std::vector<Gpu>& gpus, std::uint64_t seed) {
  std::string out;
  int mig_salt = 1000;
  for (const auto& g : gpus) {
    out += "GPU " + std::to_string(g.index) + ": " + std::string(g.device->sku->name) +
           " (UUID: " + g.uuid + ")\n";
    const auto& migs = g.device->spec->mig;
    for (std::size_t m = 0; m < migs.size(); ++m) {
      char line[160];
      std::snprintf(line, sizeof line, "  MIG %-11s Device %2zu: (UUID: %s)\n", migs[m].c_str(), m,
                    uuid_of(seed, mig_salt++, "MIG").c_str());
      out += line;
    }
  }
  return out;
}

const char* kLegend =
    "\n"
    "Legend:\n"
    "\n"
    "  X    = Self\n"
    "  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes "
    "(e.g., QPI/UPI)\n"
    "  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges "
    "within a NUMA node\n"
    "  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)\n"
    "  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host "
    "Bridge)\n"
    "  PIX  = Connection traversing at most a single PCIe bridge\n"
    "  NV#  = Connection traversing a bonded set of # NVLinks\n";

// nvidia-smi topo -m: GPUs and NICs, the ANSI underline on the header as the
// real tool prints it on a terminal and in the captures.
std::string topo_output(const Plan& plan, const std::vector<Gpu>& gpus) {
  const HostSpec& spec = *plan.spec;
  const int n = int(gpus.size());
  const int nics = spec.ib_ports;
  auto numa = [&](int gpu) { return std::max(0, gpus[gpu].device->numa); };
  auto nic_gpu = [&](int nic) { return n ? nic % n : 0; };
  auto pcie = [&](int a_numa, int b_numa) { return a_numa == b_numa ? "NODE" : "SYS"; };
  auto gpu_gpu = [&](int a, int b) -> std::string {
    const int links = gpus[a].device->sku->nvlinks;
    if (spec.interconnect == "nvswitch" && links > 0) return "NV" + std::to_string(links);
    if (spec.interconnect == "nvlink-pairs" && (a ^ 1) == b)
      return "NV" + std::to_string(links > 0 ? links / 3 : 4);
    return pcie(numa(a), numa(b));
  };
  std::string out = "\t\x1b[4m";
  for (int i = 0; i < n; ++i) out += "GPU" + std::to_string(i) + "\t";
  for (int k = 0; k < nics; ++k) out += "NIC" + std::to_string(k) + "\t";
  out += "CPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m\n";
  for (int a = 0; a < n; ++a) {
    out += "GPU" + std::to_string(a);
    for (int b = 0; b < n; ++b) out += "\t" + (a == b ? std::string(" X ") : gpu_gpu(a, b));
    for (int k = 0; k < nics; ++k)
      out += std::string("\t") + (nic_gpu(k) == a ? "PXB" : pcie(numa(a), numa(nic_gpu(k))));
    const int node = gpus[a].device->numa;
    out += "\t" + cpulist_of_node(spec.cpu, node) + "\t" + std::to_string(std::max(0, node)) +
           "\t\tN/A\n";
  }
  for (int k = 0; k < nics; ++k) {
    out += "NIC" + std::to_string(k);
    for (int b = 0; b < n; ++b)
      out += std::string("\t") + (nic_gpu(k) == b ? "PXB" : pcie(numa(nic_gpu(k)), numa(b)));
    for (int j = 0; j < nics; ++j)
      out += std::string("\t") + (j == k ? " X " : pcie(numa(nic_gpu(k)), numa(nic_gpu(j))));
    out += "\t\t\t\t\n";
  }
  out += kLegend;
  if (nics > 0) {
    out += "\nNIC Legend:\n\n";
    for (int k = 0; k < nics; ++k)
      out += "  NIC" + std::to_string(k) + ": mlx5_" + std::to_string(k) + "\n";
  }
  return out;
}

// A MIG device's memory as -q reports it: the real H100 80GB capture's sizes
// and an H200's 1g.18gb (issue 19), else the profile name's GB in MiB.
std::uint64_t mig_mib(const std::string& profile) {
  if (profile == "1g.18gb") return 16384;
  if (profile == "3g.40gb") return 40448;
  if (profile == "2g.20gb") return 20096;
  if (profile == "1g.10gb") return 9984;
  auto gb = mig_profile_memory_bytes(profile);
  return gb ? *gb / 1048576 : 0;
}

// nvidia-smi -q, cut to what the probe reads: per GPU its addressing mode and
// MIG devices (one compute instance per GPU instance, instances numbered 1..).
std::string q_output(const std::vector<Gpu>& gpus, const std::string& driver) {
  std::string out = "\n==============NVSMI LOG==============\n\nDriver Version : " + driver +
                    "\n\nAttached GPUs : " + std::to_string(gpus.size()) + "\n";
  for (const auto& g : gpus) {
    const Sku& sku = *g.device->sku;
    const auto& migs = g.device->spec->mig;
    out += "GPU " + smi_bus_id(g.device->address) +
           "\n    Product Name : " + std::string(sku.name) +
           "\n    Addressing Mode : " + (sku.ats ? "ATS" : "None") +
           "\n    MIG Mode\n        Current : " + (migs.empty() ? "Disabled" : "Enabled") + "\n";
    for (std::size_t m = 0; m < migs.size(); ++m) {
      const std::uint64_t total = mig_mib(migs[m]);
      const std::uint64_t used = std::min<std::uint64_t>(total, 9);
      out += "    MIG Device\n        Index : " + std::to_string(m) +
             "\n        GPU Instance ID : " + std::to_string(m + 1) +
             "\n        Compute Instance ID : 0\n        Shared FB Memory Usage\n"
             "            Total : " +
             std::to_string(total) + " MiB\n            Used : " + std::to_string(used) +
             " MiB\n            Free : " + std::to_string(total - used) + " MiB\n";
    }
  }
  return out;
}

std::string information(const Gpu& g, const std::string& driver) {
  std::string out;
  out += "Model: \t\t " + std::string(g.device->sku->name) + "\n";
  out += "IRQ:   \t\t " + std::to_string(10 + g.index) + "\n";
  out += "GPU UUID: \t " + g.uuid + "\n";
  out += "Video BIOS: \t 96.00.99.00.01\n";
  out += "Bus Type: \t PCIe\n";
  out += "DMA Size: \t 52 bits\n";
  out += "DMA Mask: \t 0xfffffffffffff\n";
  out += "Bus Location: \t " + g.device->address + "\n";
  out += "Device Minor: \t " + std::to_string(g.index) + "\n";
  out += "GPU Firmware: \t " + driver + "\n";
  out += "GPU Excluded:\t No\n";
  return out;
}

ToolEntry tool(std::vector<std::string> argv) {
  ToolEntry t;
  t.argv = std::move(argv);
  t.run.ms = 40;
  return t;
}

}  // namespace

void add_nvidia(const Plan& plan, Snapshot& s) {
  const HostSpec& spec = *plan.spec;
  auto driver_it = spec.drivers.find("nvidia");
  const bool has_driver_spec = driver_it != spec.drivers.end();
  const bool present = has_driver_spec || !plan.nvidia.empty();
  const DriverState state = has_driver_spec ? driver_it->second.state : DriverState::ok;
  const bool installed = spec.tools ? std::find(spec.tools->begin(), spec.tools->end(),
                                                "nvidia-smi") != spec.tools->end()
                                    : present && state != DriverState::tool_missing;
  const bool loaded = present && state != DriverState::missing;
  const std::string driver = driver_version(plan);

  std::vector<Gpu> gpus;
  for (std::size_t i = 0; i < plan.nvidia.size(); ++i) {
    const Device& d = plan.nvidia[i];
    Gpu g{&d, int(i), uuid_of(plan.seed, int(i), "GPU"), d.sku->memory_mib, 0, 0};
    const std::uint64_t usable =
        g.total_mib > d.sku->reserved_mib ? g.total_mib - d.sku->reserved_mib : 0;
    if (d.spec->free_bytes) {
      g.free_mib = std::min<std::uint64_t>(*d.spec->free_bytes >> 20, usable);
      g.used_mib = d.spec->used_bytes ? *d.spec->used_bytes >> 20 : usable - g.free_mib;
    } else {
      g.used_mib = d.spec->used_bytes ? *d.spec->used_bytes >> 20 : d.sku->idle_used_mib;
      g.free_mib = usable > g.used_mib ? usable - g.used_mib : 0;
    }
    gpus.push_back(g);

    const std::string dir = "/sys/bus/pci/devices/" + d.address;
    s.files[dir + "/vendor"] = FileEntry::of_content("0x10de\n");
    s.files[dir + "/device"] = FileEntry::of_content(hex_id(d.sku->pci_device, 4) + "\n");
    s.files[dir + "/class"] = FileEntry::of_content(hex_id(d.sku->pci_class, 6) + "\n");
    if (d.sku->subsystem_vendor) {
      s.files[dir + "/subsystem_vendor"] =
          FileEntry::of_content(hex_id(d.sku->subsystem_vendor, 4) + "\n");
      s.files[dir + "/subsystem_device"] =
          FileEntry::of_content(hex_id(d.sku->subsystem_device, 4) + "\n");
    }
    s.files[dir + "/numa_node"] = FileEntry::of_content(std::to_string(d.numa) + "\n");
    if (d.sku->revision)
      s.files[dir + "/revision"] = FileEntry::of_content(hex_id(d.sku->revision, 2) + "\n");
    if (!loaded && has_driver_spec && !driver_it->second.bound_to.empty())
      s.files[dir + "/driver"] =
          FileEntry::of_link("../../../../bus/pci/drivers/" + driver_it->second.bound_to);
    if (loaded) {
      s.files[dir + "/driver"] = FileEntry::of_link("../../../../bus/pci/drivers/nvidia");
      s.files["/proc/driver/nvidia/gpus/" + d.address + "/information"] =
          FileEntry::of_content(information(g, driver));
      s.files["/dev/nvidia" + std::to_string(i)] = FileEntry::of_node(FileKind::char_device);
    }
  }
  if (loaded && !gpus.empty()) {
    s.files["/proc/driver/nvidia/version"] = FileEntry::of_content(
        "NVRM version: NVIDIA UNIX " +
        std::string(spec.arch == "aarch64" ? "Open Kernel Module for aarch64"
                                           : "x86_64 Kernel Module") +
        "  " + driver +
        "  Release Build  (dvs-builder@U22-I3-B17-02-5)  Tue Sep 23 09:55:41 UTC 2025\n"
        "GCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04) \n");
    for (const char* node : {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"})
      s.files[node] = FileEntry::of_node(FileKind::char_device);
    if (spec.interconnect == "nvswitch") {
      for (int k = 0; k < 4; ++k)
        s.files["/dev/nvidia-nvswitch" + std::to_string(k)] =
            FileEntry::of_node(FileKind::char_device);
      s.files["/dev/nvidia-nvswitchctl"] = FileEntry::of_node(FileKind::char_device);
    }
  }

  const auto& fields = cuda_query_fields();
  ToolEntry query = tool(cuda_query_argv(fields));
  if (!installed) {
    query.run.outcome = ToolOutcome::not_found;
    query.run.ms = 0;
    s.tools[query.argv] = query;
    return;
  }
  if (!loaded) {
    query.run.exit_code = 9;
    query.run.out = kNvidiaSmiNoDriver;
    s.tools[query.argv] = query;
    return;
  }
  if (state == DriverState::mismatch) {
    query.run.exit_code = 18;
    query.run.out = "Failed to initialize NVML: Driver/library version mismatch\n";
    s.tools[query.argv] = query;
    return;
  }
  if (gpus.empty()) {
    query.run.exit_code = 6;
    query.run.out = "No devices were found\n";
    s.tools[query.argv] = query;
    return;
  }
  query.run.out = query_csv(gpus, fields, driver);
  s.tools[query.argv] = query;

  // Synthesised idle figures (docs/hwsim.md "Synthesised hosts"): only where a
  // GPU's SKU has a real capture's; the others' cells are [N/A].
  if (std::any_of(gpus.begin(), gpus.end(),
                  [](const Gpu& g) { return !g.device->sku->idle.source.empty(); })) {
    std::string joined;
    for (const auto& f : kIdleFields) joined += (joined.empty() ? "" : ",") + f;
    ToolEntry idle = tool({"nvidia-smi", "--query-gpu=" + joined, "--format=csv"});
    idle.run.out = query_csv(gpus, kIdleFields, driver);
    s.tools[idle.argv] = idle;
  }

  ToolEntry list = tool(cuda_list_argv());
  list.run.out = list_output(gpus, plan.seed);
  s.tools[list.argv] = list;

  if (gpus.size() > 1) {
    ToolEntry topo = tool(cuda_topology_argv());
    topo.run.out = topo_output(plan, gpus);
    s.tools[topo.argv] = topo;
  }
  bool any_own_memory = false;
  for (const auto& g : gpus) any_own_memory |= g.device->sku->memory_mib > 0;
  // The driver's major version from the spec's text ("580.65.06"); atoi
  // overflowed on a long run of digits.
  const auto major_text = std::string_view(driver).substr(0, driver.find('.'));
  const int major = int(parse_integer_in(major_text, 0, 99999).value_or(0));
  // The probe's gates: the addressing query from 580 on, or wherever a GPU
  // could be coherent (an old driver rejects the field; -q then answers).
  bool coherent_possible = spec.arch == "aarch64" || spec.arch.rfind("ppc64", 0) == 0;
  bool any_mig = false;
  for (const auto& g : gpus) {
    coherent_possible |= is_superchip_gpu(g.device->sku->pci_device);
    any_mig |= !g.device->spec->mig.empty();
  }
  const bool ask_mode = any_own_memory && (major >= 580 || coherent_possible);
  if (ask_mode) {
    ToolEntry mode = tool(cuda_addressing_mode_argv());
    if (major >= 580) {
      mode.run.out = query_csv(gpus, {"pci.bus_id", "addressing_mode"}, driver);
    } else {
      mode.run.exit_code = 2;
      mode.run.out = "Field \"addressing_mode\" is not a valid field to query.\n\n";
    }
    s.tools[mode.argv] = mode;
  }
  if (any_mig || (ask_mode && major < 580)) {
    ToolEntry q = tool(cuda_q_argv());
    q.run.out = q_output(gpus, driver);
    s.tools[q.argv] = q;
  }
}

}  // namespace hwaccel::sim::detail
