// rocm-smi on a simulated host.
//
// Sources (facts, not text): a ROCm 6.x `rocm-smi` and `rocm-smi -a` capture of 4x
// MI300X in a public simulator project (github.com/thamada/nvidia-smi, gls/MI300X_x4_smi.py):
// the 90-column "=== Title ===" banners, "GPU[N]\t\t: Label: value" lines, the section
// titles (Product Info, Memory Usage (Bytes), PCI Bus ID, ID, Unique ID, Serial Number,
// Version of System Component), the concise table's columns; a public script's
// comment with `--showmeminfo vram` ("VRAM Total Memory (B)", "VRAM Total Used Memory (B)");
// rocm_smi.py's --json: one line, an object per "cardN" keyed by the same labels, all
// values strings, the driver under "system". Without amdgpu loaded rocm-smi logs
// "ERROR:root:Driver not initialized (amdgpu not found in modules)" and stops
// (ROCm issue threads: ROCm/legacy-rocm-build#2767, ROCm/amdgpu#211); it is argparse,
// so an unknown option is "rocm-smi: error: unrecognized arguments: X", exit 2.
#include "sim/emulate/rocm_smi.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "sim/emulate/amd_gpus.h"
#include "sim/emulate/emulate_common.h"

namespace hwaccel::sim {

namespace {

using emulate::AmdGpu;

constexpr std::size_t kWidth = 90;
constexpr const char* kUsage =
    "usage: rocm-smi [-h] [-V] [-d DEVICE [DEVICE ...]] [--alldevices] [--showhw] [-a] [-i] [-v] "
    "[-e [EVENT ...]]\n"
    "                [--showdriverversion] [--showtempgraph] [--showfwinfo [BLOCK ...]] "
    "[--showmclkrange]\n"
    "                [--showmemvendor] [--showsclkrange] [--showproductname] [--showserial] "
    "[--showuniqueid]\n"
    "                [--showvoltagerange] [--showbus] [--showpagesinfo] [--showpendingpages] "
    "[--showretiredpages]\n"
    "                [--showunreservablepages] [-f] [-P] [-t] [-u] [--showmemuse] [--showvoltage] "
    "[-b] [-c] [-g]\n"
    "                [-l] [-M] [-m] [-o] [-p] [-S] [-s] [--showmeminfo TYPE [TYPE ...]] "
    "[--showpids [VERBOSE]]\n"
    "                [--showpidgpus [SHOWPIDGPUS ...]] [--showreplaycount] [--showrasinfo "
    "[SHOWRASINFO ...]]\n"
    "                [--showvc] [--showxgmierr] [--showtopo] [--showtopoaccess] "
    "[--showtopoweight]\n"
    "                [--showtopohops] [--showtopotype] [--showtoponuma] [--showenergycounter]\n"
    "                [--shownodesbw] [--showcomputepartition] [--showmemorypartition] [--json] "
    "[--csv]\n";

std::string hex4(unsigned v) {
  char b[8];
  std::snprintf(b, sizeof b, "0x%04x", v);
  return b;
}

// One "Label: value" of one GPU, in text and in JSON.
struct Field {
  std::string label, value;
};

struct Section {
  std::string title;
  std::vector<std::pair<int, Field>> lines;  // (gpu index, field)
};

std::string render_text(const std::vector<Section>& sections,
                        const std::vector<std::pair<std::string, std::string>>& system) {
  std::string out = "\n\n" + emulate::banner("ROCm System Management Interface", kWidth) + "\n";
  for (const auto& [label, value] : system) {
    out += emulate::banner("Version of System Component", kWidth) + "\n";
    out += label + ": " + value + "\n";
    out += std::string(kWidth, '=') + "\n";
  }
  for (const auto& section : sections) {
    out += emulate::banner(section.title, kWidth) + "\n";
    for (const auto& [gpu, field] : section.lines)
      out += "GPU[" + std::to_string(gpu) + "]\t\t: " + field.label + ": " + field.value + "\n";
    out += std::string(kWidth, '=') + "\n";
  }
  out += emulate::banner("End of ROCm SMI Log", kWidth) + "\n";
  return out;
}

std::string render_json(const std::vector<AmdGpu>& gpus, const std::vector<Section>& sections,
                        const std::vector<std::pair<std::string, std::string>>& system) {
  std::string out = "{";
  bool first_card = true;
  for (const auto& gpu : gpus) {
    std::string fields;
    for (const auto& section : sections)
      for (const auto& [index, field] : section.lines)
        if (index == gpu.index) {
          if (!fields.empty()) fields += ", ";
          fields += emulate::json_quote(field.label) + ": " + emulate::json_quote(field.value);
        }
    if (fields.empty()) continue;
    if (!first_card) out += ", ";
    first_card = false;
    out += emulate::json_quote("card" + std::to_string(gpu.index)) + ": {" + fields + "}";
  }
  if (!system.empty()) {
    if (!first_card) out += ", ";
    out += "\"system\": {";
    for (std::size_t i = 0; i < system.size(); ++i)
      out += (i ? ", " : "") + emulate::json_quote(system[i].first) + ": " +
             emulate::json_quote(system[i].second);
    out += "}";
  }
  return out + "}\n";
}

std::string percent(const AmdGpu& gpu) {
  if (!gpu.vram_total || !gpu.vram_used || *gpu.vram_total == 0) return "N/A";
  return std::to_string((*gpu.vram_used * 100 + *gpu.vram_total / 2) / *gpu.vram_total) + "%";
}

std::string concise(const std::vector<AmdGpu>& gpus) {
  constexpr std::size_t kTable = 116;
  std::string out = "\n\n" + emulate::banner("ROCm System Management Interface", kTable) + "\n";
  out += emulate::banner("Concise Info", kTable) + "\n";
  const std::size_t widths[] = {8, 22, 12, 10, 16, 8, 8, 5, 6, 8, 7, 6};
  auto row = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) line += emulate::pad_right(cells[i], widths[i]);
    return line + "\n";
  };
  out += row({"Device", "[Model : Revision]", "Temp", "Power", "Partitions", "SCLK", "MCLK", "Fan",
              "Perf", "PwrCap", "VRAM%", "GPU%"});
  out += row({"", "Name (20 chars)", "(Junction)", "(Socket)", "(Mem, Compute)", "", "", "", "", "",
              "", ""});
  out += std::string(kTable, '=') + "\n";
  for (const auto& gpu : gpus) {
    char model[32];
    std::snprintf(model, sizeof model, "[0x%04x : 0x%02x]", gpu.device_id, gpu.revision);
    std::string partitions =
        gpu.memory_partition.empty() && gpu.compute_partition.empty()
            ? "N/A"
            : (gpu.memory_partition.empty() ? "N/A" : gpu.memory_partition) + ", " +
                  (gpu.compute_partition.empty() ? "N/A" : gpu.compute_partition);
    out += row({std::to_string(gpu.index), model, "N/A", "N/A", partitions, "N/A", "N/A", "N/A",
                "auto", "N/A", percent(gpu), "0%"});
    out += row({"", gpu.name.substr(0, 20), "", "", "", "", "", "", "", "", "", ""});
  }
  out += std::string(kTable, '=') + "\n";
  out += emulate::banner("End of ROCm SMI Log", kTable) + "\n";
  return out;
}

std::string card_sku(const AmdGpu& gpu) {
  // VBIOS "113-MI3SRIOV-001": the SKU is its middle part.
  auto first = gpu.vbios.find('-');
  auto last = gpu.vbios.rfind('-');
  if (first == std::string::npos || last == first) return "N/A";
  return gpu.vbios.substr(first + 1, last - first - 1);
}

}  // namespace

ToolAnswer emulate_rocm_smi(const EmulatedHost& host, const std::vector<std::string>& argv) {
  std::set<std::string> shows;
  std::set<std::string> meminfo;
  std::vector<int> devices;
  bool json = false;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "-h" || a == "--help") return {std::string(kUsage), "", 0};
    if (a == "--json") {
      json = true;
    } else if (a == "--showproductname" || a == "--showbus" || a == "--showid" || a == "-i" ||
               a == "--showuniqueid" || a == "--showdriverversion" || a == "--showserial") {
      shows.insert(a == "-i" ? "--showid" : a);
    } else if (a == "--showmeminfo") {
      while (i + 1 < argv.size() && !argv[i + 1].starts_with("-")) {
        const std::string& type = argv[++i];
        if (type != "vram" && type != "vis_vram" && type != "gtt" && type != "all")
          return emulate::usage_error(
              std::string(kUsage) + "rocm-smi: error: argument --showmeminfo: invalid choice: '" +
                  type + "' (choose from 'all', 'gtt', 'vis_vram', 'vram')\n",
              2);
        meminfo.insert(type);
      }
      if (meminfo.empty())
        return emulate::usage_error(
            std::string(kUsage) +
                "rocm-smi: error: argument --showmeminfo: expected at least one argument\n",
            2);
    } else if (a == "-d" || a == "--device") {
      bool any = false;
      while (i + 1 < argv.size() && !argv[i + 1].empty() &&
             std::isdigit(static_cast<unsigned char>(argv[i + 1][0]))) {
        devices.push_back(std::atoi(argv[++i].c_str()));
        any = true;
      }
      if (!any)
        return emulate::usage_error(
            std::string(kUsage) +
                "rocm-smi: error: argument -d/--device: expected at least one argument\n",
            2);
    } else {
      return emulate::usage_error(
          std::string(kUsage) + "rocm-smi: error: unrecognized arguments: " + a + "\n", 2);
    }
  }

  // rocm_smi.py logs the error and exits 0 (exit(0) after driverInitialized(), as we
  // remember it; the threads cited above show the words, not the status).
  if (emulate::amdgpu_missing(host))
    return {"", "ERROR:root:Driver not initialized (amdgpu not found in modules)\n", 0};

  std::vector<AmdGpu> all = emulate::amd_gpus(host);
  std::vector<AmdGpu> gpus;
  for (const auto& gpu : all)
    if (devices.empty() || std::find(devices.begin(), devices.end(), gpu.index) != devices.end())
      gpus.push_back(gpu);
  std::string err;
  for (int d : devices)
    if (d < 0 || d >= static_cast<int>(all.size()))
      err += "ERROR: GPU[" + std::to_string(d) + "]\t: Invalid device ID\n";
  if (all.empty()) return {"", "WARNING: No AMD GPUs specified\n", 0};

  if (shows.empty() && meminfo.empty()) {
    if (!json) return {concise(gpus), err, 0};
    shows = {"--showproductname", "--showbus",
             "--showid"};  // a bare --json: what identifies each card
  }

  std::vector<std::pair<std::string, std::string>> system;
  if (shows.count("--showdriverversion"))
    system.emplace_back("Driver version", emulate::amdgpu_version(host));
  std::vector<Section> sections;
  auto section = [&](std::string title, auto&& fields_of) {
    Section s{std::move(title), {}};
    for (const auto& gpu : gpus)
      for (auto& f : fields_of(gpu)) s.lines.emplace_back(gpu.index, std::move(f));
    sections.push_back(std::move(s));
  };
  if (shows.count("--showid"))
    section("ID", [](const AmdGpu& g) {
      char rev[8];
      std::snprintf(rev, sizeof rev, "0x%x", g.revision);
      return std::vector<Field>{{"Device ID", hex4(g.device_id)}, {"Device Rev", rev}};
    });
  if (shows.count("--showuniqueid"))
    section("Unique ID", [](const AmdGpu& g) {
      return std::vector<Field>{{"Unique ID", g.unique_id.empty() ? "N/A" : g.unique_id}};
    });
  for (const char* type : {"vram", "vis_vram", "gtt"}) {
    if (!meminfo.count(type) && !meminfo.count("all")) continue;
    std::string label = std::string(type) == "vram"       ? "VRAM"
                        : std::string(type) == "vis_vram" ? "VIS_VRAM"
                                                          : "GTT";
    section("Memory Usage (Bytes)", [&](const AmdGpu& g) {
      // Each type is amdgpu's own counter pair (mem_info_{vram,vis_vram,gtt}_*),
      // as rocm-smi reads it; one not recorded is N/A, never another's figure.
      const std::string t(type);
      const auto& total_bytes = t == "vram"  ? g.vram_total
                                : t == "gtt" ? g.gtt_total
                                             : g.vis_vram_total;
      const auto& used_bytes = t == "vram"  ? g.vram_used
                               : t == "gtt" ? g.gtt_used
                                            : g.vis_vram_used;
      std::string total = total_bytes ? std::to_string(*total_bytes) : "N/A";
      std::string used = used_bytes ? std::to_string(*used_bytes) : "N/A";
      return std::vector<Field>{{label + " Total Memory (B)", total},
                                {label + " Total Used Memory (B)", used}};
    });
  }
  if (shows.count("--showserial"))
    section("Serial Number", [](const AmdGpu& g) {
      return std::vector<Field>{{"Serial Number", g.serial.empty() ? "N/A" : g.serial}};
    });
  if (shows.count("--showbus"))
    section("PCI Bus ID", [](const AmdGpu& g) { return std::vector<Field>{{"PCI Bus", g.bdf}}; });
  if (shows.count("--showproductname"))
    section("Product Info", [](const AmdGpu& g) {
      return std::vector<Field>{{"Card series", g.name},
                                {"Card model", hex4(g.device_id)},
                                {"Card vendor", "Advanced Micro Devices, Inc. [AMD/ATI]"},
                                {"Card SKU", card_sku(g)},
                                {"GFX Version", g.gfx.empty() ? "N/A" : g.gfx}};
    });
  return {json ? render_json(gpus, sections, system) : render_text(sections, system), err, 0};
}

}  // namespace hwaccel::sim
