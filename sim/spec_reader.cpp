#include "sim/spec_reader.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>

#include "sim/sku_catalog.h"
#include "src/model/number_text.h"

namespace hwaccel::sim {

std::string SpecError::to_string() const {
  std::string where = file;
  if (line > 0) where += ":" + std::to_string(line);
  if (line > 0 && column > 0) where += ":" + std::to_string(column);
  return where + ": " + message;
}

std::string to_string(DriverState state) {
  switch (state) {
    case DriverState::ok:
      return "ok";
    case DriverState::missing:
      return "missing";
    case DriverState::mismatch:
      return "mismatch";
    case DriverState::tool_missing:
      return "tool-missing";
  }
  return "?";
}

int CpuSpec::logical_cpus() const {
  if (!clusters.empty()) {
    int n = 0;
    for (const auto& c : clusters) n += c.count;
    return n;
  }
  return sockets * cores * threads;
}

std::optional<std::uint64_t> parse_spec_size(std::string_view text) {
  std::string t;
  for (char c : text)
    if (c != ' ' && c != '_') t += c;
  if (t.empty()) return std::nullopt;
  std::size_t digits = 0;
  while (digits < t.size() &&
         (std::isdigit(static_cast<unsigned char>(t[digits])) || t[digits] == '.'))
    ++digits;
  if (digits == 0 || std::count(t.begin(), t.begin() + digits, '.') > 1) return std::nullopt;
  // strtod, not stod: "." (no digit) or 400 digits made stod throw
  // invalid_argument / out_of_range, which ended `hwsim synth` in std::terminate
  // (found by tests/fuzz/hwsim_spec_fuzz.cpp). An overflow gives HUGE_VAL, refused below.
  const std::string number_text = t.substr(0, digits);
  if (number_text == ".") return std::nullopt;
  const double number = std::strtod(number_text.c_str(), nullptr);
  std::string unit = t.substr(digits);
  for (auto& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::pair<const char*, int> kUnits[] = {
      {"", 0},     {"b", 0},  {"k", 10},  {"kb", 10},  {"kib", 10}, {"m", 20},  {"mb", 20},
      {"mib", 20}, {"g", 30}, {"gb", 30}, {"gib", 30}, {"t", 40},   {"tb", 40}, {"tib", 40}};
  for (const auto& [name, shift] : kUnits) {
    if (unit != name) continue;
    const double bytes = number * double(std::uint64_t{1} << shift);
    if (bytes < 0 || bytes > 1.8e19) return std::nullopt;
    return static_cast<std::uint64_t>(bytes + 0.5);
  }
  return std::nullopt;
}

namespace {

struct Refusal {
  YAML::Mark mark;
  std::string message;
};

[[noreturn]] void refuse(const YAML::Node& at, std::string message) {
  throw Refusal{at.Mark(), std::move(message)};
}

std::string join(const std::vector<std::string>& names) {
  std::string all;
  for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
  return all;
}

void expect_keys(const YAML::Node& map, const std::string& where,
                 const std::vector<std::string>& allowed) {
  if (!map.IsMap()) refuse(map, where + ": expected a mapping with keys " + join(allowed));
  for (const auto& kv : map) {
    const auto key = kv.first.as<std::string>();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      refuse(kv.first, where + (where.empty() ? "" : ": ") + "unknown key \"" + key +
                           "\" (expected one of: " + join(allowed) + ")");
  }
}

std::string scalar(const YAML::Node& n, const std::string& where) {
  if (!n.IsScalar()) refuse(n, where + ": expected a single value");
  return n.Scalar();
}

int integer(const YAML::Node& n, const std::string& where, int lo, int hi) {
  const std::string s = scalar(n, where);
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
    refuse(n, where + ": expected a whole number from " + std::to_string(lo) + " to " +
                  std::to_string(hi) + ", got \"" + s + "\"");
  const int v = std::stoi(s);
  if (v < lo || v > hi)
    refuse(n, where + ": " + s + " is out of range (" + std::to_string(lo) + " to " +
                  std::to_string(hi) + ")");
  return v;
}

std::uint64_t size(const YAML::Node& n, const std::string& where) {
  const std::string s = scalar(n, where);
  auto v = parse_spec_size(s);
  if (!v)
    refuse(n, where +
                  ": expected a size such as \"80 GiB\", \"2112948142 kB\" or \"512M\", got \"" +
                  s + "\"");
  return *v;
}

std::vector<std::string> string_list(const YAML::Node& n, const std::string& where) {
  std::vector<std::string> out;
  if (!n.IsSequence()) refuse(n, where + ": expected a list");
  for (std::size_t i = 0; i < n.size(); ++i)
    out.push_back(scalar(n[i], where + "[" + std::to_string(i) + "]"));
  return out;
}

DriverState driver_state(const YAML::Node& n, const std::string& where) {
  const std::string s = scalar(n, where);
  if (s == "ok") return DriverState::ok;
  if (s == "missing") return DriverState::missing;
  if (s == "mismatch") return DriverState::mismatch;
  if (s == "tool-missing") return DriverState::tool_missing;
  refuse(n, where + ": expected ok, missing, mismatch or tool-missing, got \"" + s + "\"");
}

// "00:09.0" / "1b" / "0000:1b:00.0" -> "0000:1b:00.0"
std::string bus_address(const YAML::Node& n, const std::string& where) {
  std::string s = scalar(n, where);
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto hex = [](const std::string& t, std::size_t len) {
    return t.size() == len && t.find_first_not_of("0123456789abcdef") == std::string::npos;
  };
  if (hex(s, 2)) return "0000:" + s + ":00.0";
  if (s.size() == 7 && hex(s.substr(0, 2), 2) && s[2] == ':' && hex(s.substr(3, 2), 2) &&
      s[5] == '.' && hex(s.substr(6), 1))
    return "0000:" + s;
  if (s.size() == 12 && hex(s.substr(0, 4), 4) && s[4] == ':' && hex(s.substr(5, 2), 2) &&
      s[7] == ':' && hex(s.substr(8, 2), 2) && s[10] == '.' && hex(s.substr(11), 1))
    return s;
  refuse(n,
         where +
             ": expected a PCI address (\"0000:1b:00.0\", \"1b:00.0\" or the bus \"1b\"), got \"" +
             s + "\"");
}

AcceleratorSpec accelerator(const YAML::Node& n, const std::string& where) {
  AcceleratorSpec a;
  a.line = n.Mark().line + 1;
  if (n.IsScalar()) {  // "h100-sxm x8"
    std::string s = n.Scalar();
    auto x = s.rfind(" x");
    if (x != std::string::npos && s.find_first_not_of("0123456789", x + 2) == std::string::npos &&
        x + 2 < s.size()) {
      // The map form's range: "x99999" once read as 9999 devices (a 565 MB
      // snapshot that replay refuses), "x0" as none.
      auto count = parse_integer_in(std::string_view(s).substr(x + 2), 1, kMaxAcceleratorCount);
      if (!count)
        refuse(n, where + ": \"" + s.substr(x + 1) + "\" is out of range (" + "x1 to x" +
                      std::to_string(kMaxAcceleratorCount) + ")");
      a.count = int(*count);
      s = s.substr(0, x);
    }
    a.sku = s;
  } else {
    expect_keys(n, where,
                {"sku", "count", "bus", "numa", "free", "used", "mig", "compute_partition",
                 "memory_partition", "gtt", "node", "nsp_free"});
    if (!n["sku"])
      refuse(n, where + ": missing key \"sku\" (a catalogue SKU: " + join(sku_names()) + ")");
    a.sku = scalar(n["sku"], where + ".sku");
    if (n["count"]) a.count = integer(n["count"], where + ".count", 1, kMaxAcceleratorCount);
    if (n["bus"]) {
      if (!n["bus"].IsSequence())
        refuse(n["bus"], where + ".bus: expected a list of PCI addresses");
      for (std::size_t i = 0; i < n["bus"].size(); ++i)
        a.bus.push_back(bus_address(n["bus"][i], where + ".bus[" + std::to_string(i) + "]"));
    }
    if (n["numa"]) {
      if (!n["numa"].IsSequence())
        refuse(n["numa"], where + ".numa: expected a list of NUMA nodes");
      for (std::size_t i = 0; i < n["numa"].size(); ++i)
        a.numa.push_back(integer(n["numa"][i], where + ".numa[" + std::to_string(i) + "]", 0, 63));
    }
    if (n["free"]) a.free_bytes = size(n["free"], where + ".free");
    if (n["used"]) a.used_bytes = size(n["used"], where + ".used");
    if (n["gtt"]) a.gtt_bytes = size(n["gtt"], where + ".gtt");
    if (n["node"]) {
      const std::string node = scalar(n["node"], where + ".node");
      if (node != "ok" && node != "denied")
        refuse(n["node"], where + ".node: expected ok or denied, got \"" + node + "\"");
      a.node_denied = node == "denied";
    }
    if (n["nsp_free"]) a.nsp_free = integer(n["nsp_free"], where + ".nsp_free", 0, 64);
    if (n["mig"]) a.mig = string_list(n["mig"], where + ".mig");
    if (n["compute_partition"])
      a.compute_partition = scalar(n["compute_partition"], where + ".compute_partition");
    if (n["memory_partition"])
      a.memory_partition = scalar(n["memory_partition"], where + ".memory_partition");
    if (n["bus"] && int(a.bus.size()) != a.count)
      refuse(n["bus"], where + ".bus: " + std::to_string(a.bus.size()) + " addresses for " +
                           std::to_string(a.count) + " devices");
    if (n["numa"] && int(a.numa.size()) != a.count)
      refuse(n["numa"], where + ".numa: " + std::to_string(a.numa.size()) + " nodes for " +
                            std::to_string(a.count) + " devices");
  }
  const Sku* sku = find_sku(a.sku);
  if (!sku)
    refuse(n.IsMap() ? n["sku"] : n, where + ": unknown SKU \"" + a.sku +
                                         "\" (the catalogue has: " + join(sku_names()) + ")");
  for (std::size_t i = 0; i < a.mig.size(); ++i)
    if (!sku->nvidia || !sku->mig_capable)
      refuse(n["mig"], where + ".mig: " + a.sku + " has no MIG");
  if (!a.compute_partition.empty() &&
      std::find(sku->compute_partitions.begin(), sku->compute_partitions.end(),
                a.compute_partition) == sku->compute_partitions.end())
    refuse(n["compute_partition"],
           where + ".compute_partition: " + a.sku + " offers " +
               (sku->compute_partitions.empty() ? std::string("none")
                                                : join(sku->compute_partitions)));
  return a;
}

void cpu(const YAML::Node& n, CpuSpec& c) {
  expect_keys(n, "cpu", {"model", "uarch", "sockets", "cores", "threads", "clusters"});
  if (n["model"]) c.model = scalar(n["model"], "cpu.model");
  if (!n["uarch"]) refuse(n, "cpu: missing key \"uarch\" (one of: " + join(uarch_names()) + ")");
  c.uarch = scalar(n["uarch"], "cpu.uarch");
  if (!find_uarch(c.uarch))
    refuse(n["uarch"],
           "cpu.uarch: unknown \"" + c.uarch + "\" (one of: " + join(uarch_names()) + ")");
  if (n["sockets"]) c.sockets = integer(n["sockets"], "cpu.sockets", 1, 8);
  if (n["cores"]) c.cores = integer(n["cores"], "cpu.cores", 1, 512);
  if (n["threads"]) c.threads = integer(n["threads"], "cpu.threads", 1, 8);
  if (n["clusters"]) {
    const auto& list = n["clusters"];
    if (!list.IsSequence()) refuse(list, "cpu.clusters: expected a list of \"PART xN\"");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string where = "cpu.clusters[" + std::to_string(i) + "]";
      std::string s = scalar(list[i], where);
      auto x = s.rfind(" x");
      if (x == std::string::npos || x + 2 >= s.size() ||
          s.find_first_not_of("0123456789", x + 2) != std::string::npos || s.size() - x > 6)
        refuse(list[i], where + ": expected \"PART xN\" such as \"cortex-x925 x10\"");
      ArmCluster cl{s.substr(0, x), std::stoi(s.substr(x + 2))};
      if (!arm_part_id(cl.part))
        refuse(list[i], where + ": unknown Arm core \"" + cl.part +
                            "\" (one of: " + join(arm_part_names()) + ")");
      c.clusters.push_back(cl);
    }
  }
  if (c.logical_cpus() > 4096) refuse(n, "cpu: more than 4096 logical CPUs");
}

VulkanSpec vulkan(const YAML::Node& n) {
  expect_keys(n, "vulkan",
              {"instance", "api", "mesa", "llvm", "moltenvk", "drivers", "manifest_folders"});
  VulkanSpec v;
  if (n["instance"]) v.instance = scalar(n["instance"], "vulkan.instance");
  if (n["api"]) v.api = scalar(n["api"], "vulkan.api");
  if (n["mesa"]) v.mesa = scalar(n["mesa"], "vulkan.mesa");
  if (n["llvm"]) v.llvm = scalar(n["llvm"], "vulkan.llvm");
  if (n["moltenvk"]) v.moltenvk = scalar(n["moltenvk"], "vulkan.moltenvk");
  if (n["drivers"]) v.drivers = string_list(n["drivers"], "vulkan.drivers");
  if (n["manifest_folders"]) {
    const std::string b = scalar(n["manifest_folders"], "vulkan.manifest_folders");
    if (b != "true" && b != "false")
      refuse(n["manifest_folders"],
             "vulkan.manifest_folders: expected true or false, got \"" + b + "\"");
    v.manifest_folders = b == "true";
  }
  for (std::size_t i = 0; i < v.drivers.size(); ++i) {
    const auto& d = v.drivers[i];
    if (d != "nvk" && d != "nvidia" && d != "radv" && d != "anv" && d != "moltenvk" &&
        d != "llvmpipe")
      refuse(n["drivers"][i], "vulkan.drivers[" + std::to_string(i) +
                                  "]: expected nvk, nvidia, radv, anv, moltenvk or llvmpipe");
  }
  if (v.api.empty()) v.api = v.instance;
  return v;
}

}  // namespace

std::optional<SpecError> parse_spec(std::string_view text, std::string_view file_name,
                                    HostSpec& out) {
  SpecError error;
  error.file = std::string(file_name);
  if (text.size() > kMaxSpecBytes) {
    error.message = "a spec larger than " + std::to_string(kMaxSpecBytes) + " bytes is refused";
    return error;
  }
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    HostSpec spec;
    expect_keys(
        root, "",
        {"schema", "label", "hostname", "os", "arch", "kernel", "cpu", "memory", "accelerators",
         "interconnect", "ib_ports", "drivers", "tools", "env", "dmi", "vulkan", "vm", "seed"});
    if (!root["schema"] || scalar(root["schema"], "schema") != "hwsim-spec/1")
      refuse(root["schema"] ? root["schema"] : root,
             "schema: expected \"hwsim-spec/1\" as the first key");
    if (root["label"]) spec.label = scalar(root["label"], "label");
    if (root["hostname"]) spec.hostname = scalar(root["hostname"], "hostname");
    if (root["os"]) spec.os = scalar(root["os"], "os");
    if (spec.os != "linux" && spec.os != "darwin")
      refuse(root["os"], "os: expected linux or darwin");
    if (spec.os == "darwin") spec.arch = "arm64";
    if (root["arch"]) spec.arch = scalar(root["arch"], "arch");
    if (spec.os == "linux" && spec.arch != "x86_64" && spec.arch != "aarch64")
      refuse(root["arch"], "arch: expected x86_64 or aarch64");
    if (spec.os == "darwin" && spec.arch != "arm64")
      refuse(root["arch"], "arch: macOS hosts are arm64 (Apple silicon)");
    if (root["kernel"]) spec.kernel = scalar(root["kernel"], "kernel");
    if (!root["cpu"]) refuse(root, "missing key \"cpu\"");
    cpu(root["cpu"], spec.cpu);
    const Uarch* uarch = find_uarch(spec.cpu.uarch);
    if ((uarch->arm) != (spec.arch != "x86_64") ||
        (spec.os == "darwin") != (spec.cpu.uarch == "apple-silicon"))
      refuse(root["cpu"]["uarch"],
             "cpu.uarch: " + spec.cpu.uarch + " is not an " + spec.arch + " CPU");
    if (uarch->arm && spec.cpu.clusters.empty() && !uarch->default_part.empty())
      spec.cpu.clusters.push_back(
          {std::string(uarch->default_part), spec.cpu.cores * spec.cpu.sockets});
    if (!uarch->arm && spec.cpu.model.empty())
      refuse(root["cpu"], "cpu: missing key \"model\" (the \"model name\" line of /proc/cpuinfo)");
    if (root["memory"]) {
      expect_keys(root["memory"], "memory", {"total", "available"});
      if (!root["memory"]["total"]) refuse(root["memory"], "memory: missing key \"total\"");
      spec.memory.total_kb = size(root["memory"]["total"], "memory.total") / 1024;
      spec.memory.available_kb = spec.memory.total_kb * 95 / 100;
      if (root["memory"]["available"])
        spec.memory.available_kb = size(root["memory"]["available"], "memory.available") / 1024;
      if (spec.memory.available_kb > spec.memory.total_kb)
        refuse(root["memory"]["available"], "memory.available: more than memory.total");
    }
    if (root["accelerators"]) {
      const auto& list = root["accelerators"];
      if (!list.IsSequence()) refuse(list, "accelerators: expected a list (\"- h100-sxm x8\")");
      int total = 0;
      for (std::size_t i = 0; i < list.size(); ++i) {
        spec.accelerators.push_back(
            accelerator(list[i], "accelerators[" + std::to_string(i) + "]"));
        total += spec.accelerators.back().count;
        // One PCI domain has 256 buses, and the synthesizer gives each device
        // a bus of its own: more devices would need bus ids that do not exist.
        if (total > kMaxAcceleratorsPerHost)
          refuse(list[i], "accelerators[" + std::to_string(i) + "]: " + std::to_string(total) +
                              " devices in all; a host has at most " +
                              std::to_string(kMaxAcceleratorsPerHost));
      }
    }
    if (root["interconnect"]) {
      spec.interconnect = scalar(root["interconnect"], "interconnect");
      if (spec.interconnect != "nvswitch" && spec.interconnect != "nvlink-pairs" &&
          spec.interconnect != "pcie")
        refuse(root["interconnect"], "interconnect: expected nvswitch, nvlink-pairs or pcie");
    }
    if (root["ib_ports"]) spec.ib_ports = integer(root["ib_ports"], "ib_ports", 0, 32);
    if (root["drivers"]) {
      const auto& d = root["drivers"];
      expect_keys(d, "drivers",
                  {"nvidia", "amdgpu", "tpu", "habanalabs", "neuron", "i915", "intel_vpu",
                   "amdxdna", "qaic"});
      for (const auto& kv : d) {
        const std::string name = kv.first.as<std::string>();
        DriverSpec ds;
        if (kv.second.IsScalar()) {
          ds.state = driver_state(kv.second, "drivers." + name);
        } else {
          expect_keys(kv.second, "drivers." + name, {"state", "version", "bound_to"});
          if (kv.second["bound_to"])
            ds.bound_to = scalar(kv.second["bound_to"], "drivers." + name + ".bound_to");
          if (kv.second["state"])
            ds.state = driver_state(kv.second["state"], "drivers." + name + ".state");
          if (kv.second["version"])
            ds.version = scalar(kv.second["version"], "drivers." + name + ".version");
        }
        spec.drivers[name] = ds;
      }
    }
    if (root["tools"]) spec.tools = string_list(root["tools"], "tools");
    if (root["env"]) {
      if (!root["env"].IsMap()) refuse(root["env"], "env: expected a mapping NAME: value");
      for (const auto& kv : root["env"])
        spec.env[kv.first.as<std::string>()] =
            scalar(kv.second, "env." + kv.first.as<std::string>());
    }
    if (root["dmi"]) {
      expect_keys(root["dmi"], "dmi", {"vendor", "product"});
      if (root["dmi"]["vendor"]) spec.dmi_vendor = scalar(root["dmi"]["vendor"], "dmi.vendor");
      if (root["dmi"]["product"]) spec.dmi_product = scalar(root["dmi"]["product"], "dmi.product");
    }
    if (root["vm"]) {
      spec.vm = scalar(root["vm"], "vm");
      if (spec.vm != "firecracker") refuse(root["vm"], "vm: expected firecracker");
    }
    if (root["vulkan"]) spec.vulkan = vulkan(root["vulkan"]);
    if (root["seed"]) spec.seed = std::uint64_t(integer(root["seed"], "seed", 0, 999999999));
    out = std::move(spec);
    return std::nullopt;
  } catch (const Refusal& r) {
    error.line = r.mark.line + 1;
    error.column = r.mark.column + 1;
    error.message = r.message;
    if (r.mark.line < 0) error.line = error.column = 0;
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp's own guard says only "bad file" (found while fuzzing the spec
    // reader: a 1 MB spec of nested brackets).
    error.line = e.mark.line + 1;
    error.column = e.mark.column + 1;
    error.message = "lists and maps nested " + std::to_string(e.depth()) +
                    " deep; a spec nests at most a few levels";
    if (e.mark.line < 0) error.line = error.column = 0;
  } catch (const YAML::Exception& e) {
    error.line = e.mark.line + 1;
    error.column = e.mark.column + 1;
    error.message = e.msg;
    if (e.mark.line < 0) error.line = error.column = 0;
  }
  return error;
}

}  // namespace hwaccel::sim
