// system_profiler and sysctl on a simulated Mac (apple_tools.h).
//
// Sources (facts and layouts, not text):
// - SPDisplaysDataType -json: the key layout the Mac fixtures record
//   (fixtures/hosts/mac-studio-m2-ultra.yaml [SP]); its text form ("Graphics/Displays:",
//   the GPU's name as a heading, then "Chipset Model:", "Type: GPU", "Bus: Built-In",
//   "Total Number of Cores:", "Vendor: Apple (0x106b)", "Metal Support: Metal 3",
//   indented 4/6 spaces with blank lines after headings) from public outputs of M1,
//   M2 Pro and M4 Macs quoted in tests of system-report tools.
// - SPHardwareDataType: text "Hardware:" / "Hardware Overview:" with "Chip:",
//   "Total Number of Cores: 24 (16 performance and 8 efficiency)", "Memory: 192 GB";
//   -json "_name": "hardware_overview", "chip_type", "number_processors": "proc
//   T:P:E" (macOS 14; later releases add a fourth field, ":0"), "physical_memory"
//   (public outputs of M2, M2 Ultra, M4 and M4 Max Macs). Model names, serials and
//   firmware versions are not in a snapshot and are left out, not made up.
// - sysctl: "NAME: VALUE" lines, bare values with -n, one per name asked, and
//   "sysctl: unknown oid 'NAME'" on stderr for a name it does not have, the rest
//   still answered, status 1 (public outputs of an M3 Pro and of shims that
//   imitate it). Performance/efficiency core counts per chip: Apple's tech specs.
// A recorded run of the same argv answers before any of this (the shim).
#include "sim/emulate/apple_tools.h"

#include <algorithm>
#include <map>

#include "sim/emulate/emulate_common.h"

namespace hwaccel::sim {
namespace {

struct Mac {
  std::string chip;  // "Apple M2 Ultra"
  int gpu_cores = 0;
  std::uint64_t memory = 0;  // bytes
  int cpus = 0, performance = 0, efficiency = 0;
  std::string metal;  // "Metal 3"
  std::map<std::string, std::string> sysctl;
};

// Performance and efficiency cores of an Apple chip with `total` CPUs (Apple's
// tech specs; binned parts listed by their total).
std::pair<int, int> core_split(const std::string& chip, int total) {
  struct Split {
    const char* chip;
    int total, p, e;
  };
  static const Split table[] = {
      {"Apple M1", 8, 4, 4},         {"Apple M1 Pro", 8, 6, 2},     {"Apple M1 Pro", 10, 8, 2},
      {"Apple M1 Max", 10, 8, 2},    {"Apple M1 Ultra", 20, 16, 4}, {"Apple M2", 8, 4, 4},
      {"Apple M2 Pro", 10, 6, 4},    {"Apple M2 Pro", 12, 8, 4},    {"Apple M2 Max", 12, 8, 4},
      {"Apple M2 Ultra", 24, 16, 8}, {"Apple M3", 8, 4, 4},         {"Apple M3 Pro", 11, 5, 6},
      {"Apple M3 Pro", 12, 6, 6},    {"Apple M3 Max", 14, 10, 4},   {"Apple M3 Max", 16, 12, 4},
      {"Apple M3 Ultra", 28, 20, 8}, {"Apple M3 Ultra", 32, 24, 8}, {"Apple M4", 10, 4, 6},
      {"Apple M4 Pro", 12, 8, 4},    {"Apple M4 Pro", 14, 10, 4},   {"Apple M4 Max", 14, 10, 4},
      {"Apple M4 Max", 16, 12, 4},
  };
  for (const auto& s : table)
    if (chip == s.chip && total == s.total) return {s.p, s.e};
  return {0, 0};
}

// "Apple M2 Ultra (76-core GPU)" -> 76.
int cores_in(const std::string& name) {
  auto at = name.find("-core GPU");
  if (at == std::string::npos) return 0;
  auto open = name.rfind('(', at);
  if (open == std::string::npos || at - open > 5) return 0;
  int n = 0;
  for (std::size_t i = open + 1; i < at; ++i) {
    if (name[i] < '0' || name[i] > '9') return 0;
    n = n * 10 + (name[i] - '0');
  }
  return n;
}

// A recorded `sysctl -n NAME` (one name) that exited 0: its value.
std::optional<std::string> recorded_sysctl(const Snapshot& s, const std::string& name) {
  const ToolEntry* run = emulate::recorded_ok(s, {"sysctl", "-n", name});
  if (!run) return std::nullopt;
  std::string v = run->run.out.substr(0, 4096);
  while (!v.empty() && (v.back() == '\n' || v.back() == '\r')) v.pop_back();
  if (v.find('\n') != std::string::npos) return std::nullopt;
  return v;
}

std::optional<Mac> mac_of(const EmulatedHost& host) {
  const Snapshot& s = host.snapshot;
  if (s.facts.os != "darwin") return std::nullopt;
  Mac m;
  const Entry* gpu = nullptr;
  for (const Entry* e : emulate::devices_of(host.detection, "apple"))
    if (!gpu && e->compute_class.rfind("metal", 0) == 0) gpu = e;
  if (gpu) {
    m.chip = gpu->name.substr(0, gpu->name.find(" ("));
    m.gpu_cores = cores_in(gpu->name);
    m.memory = gpu->memory.total_bytes.value_or(0);
    m.metal = gpu->compute_class == "metal4"   ? "Metal 4"
              : gpu->compute_class == "metal3" ? "Metal 3"
                                               : "Metal 2";
  }
  if (auto brand = recorded_sysctl(s, "machdep.cpu.brand_string")) m.chip = *brand;
  if (auto mem = recorded_sysctl(s, "hw.memsize");
      mem && !mem->empty() && mem->size() < 20 &&
      std::all_of(mem->begin(), mem->end(), [](char c) { return c >= '0' && c <= '9'; }))
    m.memory = std::stoull(*mem);
  m.cpus = static_cast<int>(std::clamp<std::int64_t>(s.facts.cpus, 0, 4096));
  std::tie(m.performance, m.efficiency) = core_split(m.chip, m.cpus);

  auto& k = m.sysctl;
  if (!m.chip.empty()) k["machdep.cpu.brand_string"] = m.chip;
  if (m.memory) k["hw.memsize"] = std::to_string(m.memory);
  if (m.cpus) {
    for (const char* n : {"hw.ncpu", "hw.activecpu", "hw.logicalcpu", "hw.logicalcpu_max",
                          "hw.physicalcpu", "hw.physicalcpu_max"})
      k[n] = std::to_string(m.cpus);  // Apple silicon has no SMT: physical == logical
    k["machdep.cpu.core_count"] = k["machdep.cpu.thread_count"] = std::to_string(m.cpus);
  }
  if (m.performance) {
    k["hw.nperflevels"] = "2";
    for (auto [level, n, name] :
         {std::tuple{0, m.performance, "Performance"}, std::tuple{1, m.efficiency, "Efficiency"}}) {
      const std::string p = "hw.perflevel" + std::to_string(level) + ".";
      for (const char* f : {"physicalcpu", "physicalcpu_max", "logicalcpu", "logicalcpu_max"})
        k[p + f] = std::to_string(n);
      k[p + "name"] = name;
    }
  }
  if (s.facts.page_size > 0) k["hw.pagesize"] = std::to_string(s.facts.page_size);
  if (s.facts.arch == "arm64" || s.facts.arch == "aarch64") {
    k["hw.machine"] = "arm64";
    k["hw.optional.arm64"] = "1";
  }
  k["kern.ostype"] = "Darwin";
  if (!s.facts.kernel.empty()) k["kern.osrelease"] = s.facts.kernel;
  if (!s.facts.hostname.empty()) k["kern.hostname"] = s.facts.hostname;
  // Every single-name `sysctl -n NAME` the snapshot recorded answers as recorded.
  for (const auto& [argv, tool] : s.tools)
    if (argv.size() == 3 && argv[0] == "sysctl" && argv[1] == "-n")
      if (auto v = recorded_sysctl(s, argv[2])) k[argv[2]] = *v;
  return m;
}

std::string memory_text(std::uint64_t bytes) {
  return std::to_string(bytes / (1024ull * 1024 * 1024)) + " GB";
}

std::string displays_text(const Mac& m) {
  std::string out = "Graphics/Displays:\n\n";
  if (m.chip.empty()) return out;
  out += "    " + m.chip + ":\n\n";
  out += "      Chipset Model: " + m.chip + "\n      Type: GPU\n      Bus: Built-In\n";
  if (m.gpu_cores) out += "      Total Number of Cores: " + std::to_string(m.gpu_cores) + "\n";
  out += "      Vendor: Apple (0x106b)\n      Metal Support: " + m.metal + "\n\n";
  return out;
}

std::string displays_json(const Mac& m) {
  using emulate::json_quote;
  std::string out = "{\n  \"SPDisplaysDataType\" : [\n";
  if (!m.chip.empty()) {
    std::string family = m.metal == "Metal 4"   ? "spdisplays_metal4"
                         : m.metal == "Metal 3" ? "spdisplays_metal3"
                                                : "spdisplays_metal2";
    out += "    {\n      \"_name\" : " + json_quote(m.chip) +
           ",\n      \"spdisplays_mtlgpufamilysupport\" : \"" + family +
           "\",\n      \"spdisplays_vendor\" : \"sppci_vendor_Apple\",\n"
           "      \"sppci_bus\" : \"spdisplays_builtin\",\n";
    if (m.gpu_cores) out += "      \"sppci_cores\" : \"" + std::to_string(m.gpu_cores) + "\",\n";
    out += "      \"sppci_device_type\" : \"spdisplays_gpu\",\n      \"sppci_model\" : " +
           json_quote(m.chip) + "\n    }\n";
  }
  return out + "  ]\n}\n";
}

int darwin_major(const std::string& kernel) {
  int n = 0;
  for (char c : kernel.substr(0, 3)) {
    if (c < '0' || c > '9') break;
    n = n * 10 + (c - '0');
  }
  return n;
}

std::string hardware_text(const Mac& m) {
  std::string out = "Hardware:\n\n    Hardware Overview:\n\n";
  if (!m.chip.empty()) out += "      Chip: " + m.chip + "\n";
  if (m.cpus) {
    out += "      Total Number of Cores: " + std::to_string(m.cpus);
    if (m.performance)
      out += " (" + std::to_string(m.performance) + " performance and " +
             std::to_string(m.efficiency) + " efficiency)";
    out += "\n";
  }
  if (m.memory) out += "      Memory: " + memory_text(m.memory) + "\n";
  return out + "\n";
}

std::string hardware_json(const Mac& m, const std::string& kernel) {
  using emulate::json_quote;
  std::vector<std::string> keys = {"      \"_name\" : \"hardware_overview\""};
  if (!m.chip.empty()) keys.push_back("      \"chip_type\" : " + json_quote(m.chip));
  if (m.cpus) {
    std::string procs = "proc " + std::to_string(m.cpus) + ":" + std::to_string(m.performance) +
                        ":" + std::to_string(m.efficiency);
    if (darwin_major(kernel) >= 24) procs += ":0";
    keys.push_back("      \"number_processors\" : \"" + procs + "\"");
  }
  if (m.memory) keys.push_back("      \"physical_memory\" : \"" + memory_text(m.memory) + "\"");
  std::string out = "{\n  \"SPHardwareDataType\" : [\n    {\n";
  for (std::size_t i = 0; i < keys.size(); ++i)
    out += keys[i] + (i + 1 < keys.size() ? ",\n" : "\n");
  return out + "    }\n  ]\n}\n";
}

ToolAnswer not_a_mac(const std::string& tool) {
  return {"", "hwsim: " + tool + ": not emulated (the snapshot is not of a Mac)\n", 127};
}

}  // namespace

ToolAnswer emulate_system_profiler(const EmulatedHost& host, const std::vector<std::string>& argv) {
  auto mac = mac_of(host);
  if (!mac) return not_a_mac("system_profiler");
  bool json = false;
  std::vector<std::string> types;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "-json")
      json = true;
    else if (a == "-detailLevel" && i + 1 < argv.size())
      ++i;  // mini/basic/full: the fields emulated are in every level
    else if (a == "-xml" || a == "-listDataTypes" || a.empty() || a[0] == '-')
      return {"", "hwsim: system_profiler " + a + ": not emulated\n", 2};
    else
      types.push_back(a);
  }
  if (types.empty()) return {"", "hwsim: system_profiler with no data type: not emulated\n", 2};
  std::string out;
  if (json) {
    // One JSON object holding each type asked for.
    std::string body;
    for (const auto& t : types) {
      std::string one = t == "SPDisplaysDataType" ? displays_json(*mac)
                        : t == "SPHardwareDataType"
                            ? hardware_json(*mac, host.snapshot.facts.kernel)
                            : "";
      if (one.empty()) continue;            // an unknown type is left out, as the tool does
      one = one.substr(2, one.size() - 5);  // strip "{\n" and "\n}\n"
      body += (body.empty() ? "" : ",\n") + one;
    }
    return {"{\n" + body + (body.empty() ? "" : "\n") + "}\n", "", 0};
  }
  for (const auto& t : types) {
    if (t == "SPDisplaysDataType") out += displays_text(*mac);
    if (t == "SPHardwareDataType") out += hardware_text(*mac);
  }
  return {out, "", 0};
}

ToolAnswer emulate_sysctl(const EmulatedHost& host, const std::vector<std::string>& argv) {
  auto mac = mac_of(host);
  if (!mac) return not_a_mac("sysctl");
  bool bare = false;
  std::vector<std::string> names;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    if (argv[i] == "-n")
      bare = true;
    else if (!argv[i].empty() && argv[i][0] == '-')
      return {"", "hwsim: sysctl " + argv[i] + ": not emulated\n", 2};
    else
      names.push_back(argv[i]);
  }
  if (names.empty()) return {"", "hwsim: sysctl with no name (or -a): not emulated\n", 2};
  ToolAnswer a;
  for (const auto& n : names) {
    auto it = mac->sysctl.find(n);
    if (it == mac->sysctl.end()) {
      a.err += "sysctl: unknown oid '" + n + "'\n";
      a.exit_code = 1;
      continue;
    }
    a.out += (bare ? "" : n + ": ") + it->second + "\n";
  }
  return a;
}

}  // namespace hwaccel::sim
