#include "sim/emulate/nvidia_smi_model.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "sim/emulate/nvidia_smi_sections.h"
#include "src/probe/nvidia_smi_csv.h"

namespace hwaccel::sim {
namespace {

bool is_nvidia_smi(const std::vector<std::string>& argv) {
  if (argv.empty()) return false;
  const std::string& n = argv[0];
  auto slash = n.rfind('/');
  return (slash == std::string::npos ? n : n.substr(slash + 1)) == "nvidia-smi";
}

std::optional<std::uint64_t> mib(const std::optional<std::uint64_t>& bytes) {
  if (!bytes) return std::nullopt;
  return *bytes / (1024 * 1024);
}

// Each recorded `--query-gpu=... --format=csv` run with its header: its cells
// by field, with units as nvidia-smi prints them under --format=csv; and each
// recorded `--query-compute-apps=...` with its header: the processes by GPU.
void add_recorded_queries(const Snapshot& s, NvModel& m) {
  for (const auto& [argv, tool] : s.tools) {
    if (!is_nvidia_smi(argv) || tool.run.outcome != ToolOutcome::exited || tool.run.exit_code != 0)
      continue;
    // A whole `-q`: its sections answer `-q -d` (sim/emulate/nvidia_smi_sections.h).
    if (argv.size() == 2 && (argv[1] == "-q" || argv[1] == "--query")) {
      for (auto& [bus, sections] : recorded_q_sections(tool.run.out))
        for (auto& g : m.gpus)
          if (!g.bus_id.empty() && g.bus_id == bus) g.q_sections = sections;
      continue;
    }
    bool query = false, apps = false, header = true;
    for (const auto& a : argv) {
      query = query || a.rfind("--query-gpu=", 0) == 0;
      apps = apps || a.rfind("--query-compute-apps=", 0) == 0;
      header = header && a.find("noheader") == std::string::npos;
    }
    if (apps && header)
      for (auto& [bus, list] : recorded_processes(tool.run.out))
        for (auto& g : m.gpus)
          if (!g.bus_id.empty() && normalise_pci_bus_id(g.bus_id) == bus) g.processes = list;
    if (!query || !header) continue;
    NvidiaSmiTable t = parse_nvidia_smi_csv(tool.run.out);
    auto index_col = t.column("index");
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      std::size_t gpu = r;
      if (index_col) {
        const std::string& cell = t.rows[r][*index_col];
        if (cell.empty() || !std::all_of(cell.begin(), cell.end(), ::isdigit)) continue;
        gpu = static_cast<std::size_t>(std::stoul(cell.substr(0, 6)));
      }
      if (gpu >= m.gpus.size()) continue;
      for (std::size_t c = 0; c < t.columns.size(); ++c) {
        std::string cell = t.rows[r][c];
        if (!t.units[c].empty() && !is_no_value(cell) &&
            (cell.size() < t.units[c].size() ||
             cell.compare(cell.size() - t.units[c].size(), std::string::npos, t.units[c]) != 0))
          cell += " " + t.units[c];
        m.gpus[gpu].recorded.emplace(t.columns[c], cell);
      }
    }
  }
}

// "12.4" of the first "CUDA Version : 12.4" in `text` (plain scanning: recorded
// output is hostile, and libstdc++'s regex engine recurses per character).
std::string cuda_version_in(std::string_view text) {
  auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  constexpr std::string_view key = "CUDA Version";
  for (auto at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
    std::size_t i = at + key.size();
    while (i < text.size() && space(text[i])) ++i;
    if (i >= text.size() || text[i] != ':') continue;
    ++i;
    while (i < text.size() && space(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && digit(text[i])) ++i;
    if (i == start || i >= text.size() || text[i] != '.') continue;
    const std::size_t minor = ++i;
    while (i < text.size() && digit(text[i])) ++i;
    if (i > minor) return std::string(text.substr(start, i - start));
  }
  return "";
}

// "CUDA Version: 12.4" in a recorded table or -q output.
std::string recorded_cuda_version(const Snapshot& s) {
  for (const auto& [argv, tool] : s.tools) {
    if (!is_nvidia_smi(argv)) continue;
    std::string version = cuda_version_in(std::string_view(tool.run.out).substr(0, 4096));
    if (!version.empty()) return version;
  }
  return "";
}

}  // namespace

std::string compute_cap_of(const std::string& cc) {
  if (cc.size() < 5 || cc.compare(0, 3, "sm_") != 0) return "";
  std::string digits = cc.substr(3);
  if (!std::all_of(digits.begin(), digits.end(), ::isdigit)) return "";
  return digits.substr(0, digits.size() - 1) + "." + digits.substr(digits.size() - 1);
}

std::string nvsmi_bus_id(const std::string& b) {
  // "dddd:bb:dd.f" (domain at least 4 digits) -> 8-digit domain, upper case.
  auto colon = b.find(':');
  if (colon == std::string::npos || b.size() < colon + 8) return "";
  std::string domain = b.substr(0, colon);
  if (domain.size() < 8) domain = std::string(8 - domain.size(), '0') + domain;
  std::string out = domain + b.substr(colon);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string cuda_version_of_driver(const std::string& driver) {
  // The CUDA version each driver branch reports (NVIDIA's CUDA toolkit release notes,
  // table "CUDA Toolkit and Corresponding Driver Versions").
  static const std::map<int, std::string> branches = {
      {418, "10.1"}, {440, "10.2"}, {450, "11.0"}, {455, "11.1"}, {460, "11.2"}, {465, "11.3"},
      {470, "11.4"}, {495, "11.5"}, {510, "11.6"}, {515, "11.7"}, {520, "11.8"}, {525, "12.0"},
      {530, "12.1"}, {535, "12.2"}, {545, "12.3"}, {550, "12.4"}, {555, "12.5"}, {560, "12.6"},
      {565, "12.7"}, {570, "12.8"}, {575, "12.9"}, {580, "13.0"}, {590, "13.1"}};
  std::size_t n = 0;
  while (n < driver.size() && n < 4 && std::isdigit(static_cast<unsigned char>(driver[n]))) ++n;
  if (n != 3) return "";
  int major = std::stoi(driver.substr(0, n));
  auto it = branches.upper_bound(major);
  if (it == branches.begin()) return "";
  --it;
  return it->second;
}

ToolAnswer nvidia_smi_no_driver() {
  // nvidia-smi prints its failures on stdout (fixtures/hosts/nvidia-no-driver.yaml [RC]).
  return {
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
      "sure that the latest NVIDIA driver is installed and running.\n\n",
      "", 9};
}

NvModel nvidia_model(const EmulatedHost& host) {
  NvModel m;
  const Detection& d = host.detection;
  std::vector<const Entry*> whole, parts;
  for (const auto& e : d.entries) {
    if (e.backend != "cuda" || e.status != EntryStatus::ready) continue;
    (e.partition ? parts : whole).push_back(&e);
  }
  std::sort(whole.begin(), whole.end(), [](auto* a, auto* b) { return a->index < b->index; });
  for (const Entry* e : whole) {
    NvGpu g;
    g.index = static_cast<int>(m.gpus.size());
    g.name = e->name;
    g.uuid = e->uuid;
    g.bus_id = nvsmi_bus_id(e->pci_bus_id);
    g.pci_device_id = e->pci_device_id;
    g.pci_vendor_id = e->pci_vendor_id;
    if (e->memory.kind == MemoryKind::discrete) {
      g.total_mib = mib(e->memory.total_bytes);
      g.free_mib = mib(e->memory.free_bytes);
    }
    g.compute_cap = compute_cap_of(e->compute_class);
    g.numa_node = e->numa_node;
    g.cpu_affinity = e->cpu_affinity;
    if (e->pcie) {
      g.pcie_gen_current = e->pcie->current.generation;
      g.pcie_gen_max = e->pcie->max.generation;
      g.pcie_width_current = e->pcie->current.width;
      g.pcie_width_max = e->pcie->max.width;
    }
    if (m.driver_version.empty()) m.driver_version = e->driver_version;
    for (const Entry* p : parts) {
      if (p->partition->parent_physical_id != e->physical_id) continue;
      NvMig mig;
      auto slash = p->physical_id.rfind('/');
      std::string n = slash == std::string::npos ? "" : p->physical_id.substr(slash + 1);
      mig.device = !n.empty() && n.size() < 6 && std::all_of(n.begin(), n.end(), ::isdigit)
                       ? std::stoi(n)
                       : static_cast<int>(g.migs.size());
      mig.profile = p->partition->profile;
      mig.uuid = p->uuid;
      mig.gpu_instance_id = p->partition->gpu_instance_id;
      mig.compute_instance_id = p->partition->compute_instance_id;
      mig.total_mib = mib(p->memory.total_bytes);
      mig.free_mib = mib(p->memory.free_bytes);
      g.migs.push_back(mig);
    }
    std::sort(g.migs.begin(), g.migs.end(),
              [](const NvMig& a, const NvMig& b) { return a.device < b.device; });
    m.physical_ids.push_back(e->physical_id);
    m.gpus.push_back(std::move(g));
  }
  add_recorded_queries(host.snapshot, m);
  // Used memory: recorded, else what total and free leave.
  for (auto& g : m.gpus) {
    auto it = g.recorded.find("memory.used");
    if (it != g.recorded.end() && !is_no_value(it->second)) {
      try {
        g.used_mib = std::stoull(it->second.substr(0, 20));
      } catch (...) {
      }
    }
    if (!g.used_mib && g.total_mib && g.free_mib && *g.total_mib >= *g.free_mib) g.used_mib = 0;
  }
  for (const auto& l : d.links) m.links.push_back(l);
  m.cuda_version = recorded_cuda_version(host.snapshot);
  if (m.cuda_version.empty()) m.cuda_version = cuda_version_of_driver(m.driver_version);
  if (m.gpus.empty()) {
    // The real tool fails on this host: as it was recorded failing, else in its words.
    for (const auto& [argv, tool] : host.snapshot.tools)
      if (is_nvidia_smi(argv) && tool.run.outcome == ToolOutcome::exited &&
          tool.run.exit_code != 0) {
        m.failure = ToolAnswer{tool.run.out, tool.run.err, tool.run.exit_code};
        return m;
      }
    bool no_driver = false;
    for (const auto& b : d.backends)
      if (b.name == "cuda" && b.reason && b.reason->code == ReasonCode::driver_not_found)
        no_driver = true;
    m.failure = no_driver ? nvidia_smi_no_driver() : ToolAnswer{"No devices were found\n", "", 6};
  }
  return m;
}

}  // namespace hwaccel::sim
