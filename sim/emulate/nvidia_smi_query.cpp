// nvidia-smi --query-gpu (CSV), -q (text) and -q -x (XML). Sources: the real captures
// in /work/shared/real-captures/ (nvidia-smi__linux-x86_64__nvidia-h100-mig__590.48.01.txt
// and ...-h200__590.48.01.txt: the CSV's ", " separator, "[MiB]" header units,
// "[N/A]" cells; -q's NVSMI LOG header, 4-space indents and the colon at column 55;
// MIG device blocks), the field list of their --help-query-gpu, the unknown-field
// wording that src/probe/nvidia_smi_errors.cpp reads (exit 2), and NVIDIA's
// nvsmi_device DTD element names for the XML (product_name, fb_memory_usage, ...).
#include <algorithm>
#include <cstdio>

#include "sim/emulate/nvidia_smi.h"
#include "sim/emulate/nvidia_smi_fields.h"
#include "sim/emulate/nvidia_smi_sections.h"
#include "src/probe/nvidia_smi_csv.h"

namespace hwaccel::sim {
namespace {

std::string hex(unsigned v, int width) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%0*X", width, v);
  return buf;
}

// "00000000:1B:00.0" -> domain, bus, device.
struct BusParts {
  std::string domain, bus, device;
};
std::optional<BusParts> bus_parts(const std::string& id) {
  if (id.size() != 16 || id[8] != ':' || id[11] != ':' || id[14] != '.') return std::nullopt;
  return BusParts{id.substr(4, 4), id.substr(9, 2), id.substr(12, 2)};
}

std::string mib_text(const std::optional<std::uint64_t>& v) {
  return v ? std::to_string(*v) + " MiB" : "N/A";
}

std::string architecture(const std::string& cap) {
  if (cap == "7.0" || cap == "7.2") return "Volta";
  if (cap == "7.5") return "Turing";
  if (cap == "8.0" || cap == "8.6" || cap == "8.7") return "Ampere";
  if (cap == "8.9") return "Ada Lovelace";
  if (cap == "9.0") return "Hopper";
  if (cap.rfind("10.", 0) == 0 || cap.rfind("12.", 0) == 0) return "Blackwell";
  return "N/A";
}

// One field's cell under --format=csv (units included); "" when the field is unknown.
std::string cell(const NvModel& m, const NvGpu& g, const std::string& f, const std::string& when) {
  auto na = [](const std::string& s) { return s.empty() ? std::string("[N/A]") : s; };
  auto mem = [](const std::optional<std::uint64_t>& v) {
    return v ? std::to_string(*v) + " MiB" : std::string("[N/A]");
  };
  auto bus = bus_parts(g.bus_id);
  if (f == "timestamp") return nvsmi_timestamp(when);
  if (f == "driver_version" || f == "kmd_version") return na(m.driver_version);
  if (f == "count") return std::to_string(m.gpus.size());
  if (f == "index") return std::to_string(g.index);
  if (f == "name") return na(g.name);
  if (f == "uuid") return na(g.uuid);
  if (f == "pci.bus_id") return na(g.bus_id);
  if (f == "pci.domain" && bus) return "0x" + bus->domain;
  if (f == "pci.bus" && bus) return "0x" + bus->bus;
  if (f == "pci.device" && bus) return "0x" + bus->device;
  if (f == "pci.device_id" && g.pci_device_id && g.pci_vendor_id)
    return "0x" + hex(*g.pci_device_id, 4) + hex(*g.pci_vendor_id, 4);
  if (f == "memory.total" && g.total_mib) return mem(g.total_mib);
  if (f == "memory.free" && g.free_mib) return mem(g.free_mib);
  if (f == "memory.used" && g.used_mib && g.total_mib) return mem(g.used_mib);
  if (f == "compute_cap") return na(g.compute_cap);
  if (f == "mig.mode.current" || f == "mig.mode.pending") {
    auto it = g.recorded.find(f);
    if (it != g.recorded.end()) return it->second;
    if (!g.migs.empty()) return "Enabled";
    return nvsmi_mig_capable(g) ? "Disabled" : "[N/A]";
  }
  if (f == "pcie.link.gen.current" && g.pcie_gen_current)
    return std::to_string(*g.pcie_gen_current);
  if (f == "pcie.link.gen.max" && g.pcie_gen_max) return std::to_string(*g.pcie_gen_max);
  if (f == "pcie.link.width.current" && g.pcie_width_current)
    return std::to_string(*g.pcie_width_current);
  if (f == "pcie.link.width.max" && g.pcie_width_max) return std::to_string(*g.pcie_width_max);
  if (f == "compute_mode") return "Default";
  auto it = g.recorded.find(f);
  if (it != g.recorded.end()) return it->second;
  return "[N/A]";
}

std::string strip_unit(const std::string& c, const std::string& unit) {
  if (unit.empty() || c.size() <= unit.size() + 1) return c;
  if (c.compare(c.size() - unit.size() - 1, std::string::npos, " " + unit) == 0)
    return c.substr(0, c.size() - unit.size() - 1);
  return c;
}

// -q's "KEY : VALUE" with the colon at column 55 (real captures, every level).
std::string kv(int level, const std::string& key, const std::string& value) {
  std::string line = std::string(4 * level, ' ') + key;
  if (line.size() < 55) line += std::string(55 - line.size(), ' ');
  return line + ": " + value + "\n";
}
std::string section(int level, const std::string& key) {
  return std::string(4 * level, ' ') + key + "\n";
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else if (static_cast<unsigned char>(c) >= 0x20 || c == '\t')
      out += c;
  }
  return out;
}

}  // namespace

ToolAnswer nvsmi_query_gpu(const NvModel& m, const std::vector<int>& gpus,
                           const std::string& fields, CsvFormat format, const std::string& when) {
  std::vector<std::string> asked;
  std::size_t at = 0;
  while (at <= fields.size()) {
    auto comma = fields.find(',', at);
    std::string f = fields.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    // The tool's own wording and status for a name it does not know.
    if (!is_query_gpu_field(f, m.driver_version))
      return {"Field \"" + f +
                  "\" is not a valid field to query.\n\n"
                  "See 'nvidia-smi --help-query-gpu' for more information.\n",
              "", 2};
    asked.push_back(f);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  std::string out;
  if (format.header) {
    for (std::size_t i = 0; i < asked.size(); ++i) {
      std::string unit = query_field_unit(canonical_query_field(asked[i]));
      out += (i ? ", " : "") + asked[i] + (unit.empty() ? "" : " [" + unit + "]");
    }
    out += "\n";
  }
  for (int gi : gpus) {
    const NvGpu& g = m.gpus[gi];
    for (std::size_t i = 0; i < asked.size(); ++i) {
      std::string f = canonical_query_field(asked[i]);
      std::string c = cell(m, g, f, when);
      if (!format.units) c = strip_unit(c, query_field_unit(f));
      out += (i ? ", " : "") + c;
    }
    out += "\n";
  }
  return {out, "", 0};
}

// -q's memory sections from the model: FB memory (reserved = total - used - free),
// and BAR1, which no snapshot records.
std::string fb_memory_section(const NvGpu& g) {
  return section(1, "FB Memory Usage") + kv(2, "Total", mib_text(g.total_mib)) +
         kv(2, "Reserved",
            g.total_mib && g.free_mib && g.used_mib
                ? mib_text(*g.total_mib - *g.free_mib - *g.used_mib)
                : "N/A") +
         kv(2, "Used", g.total_mib ? mib_text(g.used_mib) : "N/A") +
         kv(2, "Free", mib_text(g.free_mib));
}
std::string bar1_memory_section() {
  return section(1, "BAR1 Memory Usage") + kv(2, "Total", "N/A") + kv(2, "Used", "N/A") +
         kv(2, "Free", "N/A");
}

// The sections `display` selects, in -q's order: as recorded where the snapshot
// holds a -q, else built from the model (FB memory from the detection).
std::string displayed_sections(const NvGpu& g, const std::vector<std::string>& display) {
  const std::vector<std::string> titles = displayed_titles(display);
  auto asked = [&](const std::string& t) {
    return std::find(titles.begin(), titles.end(), t) != titles.end();
  };
  std::string out;
  if (!g.q_sections.empty()) {
    for (const auto& sec : g.q_sections)
      if (asked(sec.title)) out += sec.text;
    return out;
  }
  // Nothing recorded: every section in the table's order, built where the model can.
  for (const auto& t : titles) {
    if (t == "FB Memory Usage") {
      out += fb_memory_section(g);
    } else if (t == "BAR1 Memory Usage") {
      out += bar1_memory_section();
    } else {
      out += built_q_section(g, t);
    }
  }
  return out;
}

std::string nvsmi_q(const NvModel& m, const std::vector<int>& gpus,
                    const std::vector<std::string>& display, const std::string& when) {
  auto want = [&](const char* what) {
    if (display.empty()) return true;
    for (const auto& d : display)
      if (d == what) return true;
    return false;
  };
  auto na = [](const std::string& s) { return s.empty() ? std::string("N/A") : s; };
  std::string out = "\n==============NVSMI LOG==============\n\n";
  out += kv(0, "Timestamp", nvsmi_clock_text(when));
  out += kv(0, "Driver Version", na(m.driver_version));
  out += kv(0, "CUDA Version", na(m.cuda_version));
  out += "\n" + kv(0, "Attached GPUs", std::to_string(m.gpus.size()));
  for (int gi : gpus) {
    const NvGpu& g = m.gpus[gi];
    out += "GPU " + na(g.bus_id) + "\n";
    if (display.empty()) {
      out += kv(1, "Product Name", na(g.name));
      out += kv(1, "Product Architecture", architecture(g.compute_cap));
      out += section(1, "MIG Mode");
      std::string mig = g.migs.empty() ? "N/A" : "Enabled";
      if (auto it = g.recorded.find("mig.mode.current"); it != g.recorded.end()) mig = it->second;
      out += kv(2, "Current", mig) + kv(2, "Pending", mig);
      for (const NvMig& d : g.migs) {
        out += section(1, "MIG Device");
        out += kv(2, "Index", std::to_string(d.device));
        out += kv(2, "GPU Instance ID",
                  d.gpu_instance_id ? std::to_string(*d.gpu_instance_id) : "N/A");
        out += kv(2, "Compute Instance ID",
                  d.compute_instance_id ? std::to_string(*d.compute_instance_id) : "N/A");
        out += section(2, "Shared FB Memory Usage");
        out += kv(3, "Total", mib_text(d.total_mib));
      }
      out += kv(1, "Serial Number", "N/A");
      out += kv(1, "GPU UUID", na(g.uuid));
      out += kv(1, "Minor Number", std::to_string(g.index));
      out += section(1, "PCI");
      auto bus = bus_parts(g.bus_id);
      out += kv(2, "Bus", bus ? "0x" + bus->bus : "N/A");
      out += kv(2, "Device", bus ? "0x" + bus->device : "N/A");
      out += kv(2, "Domain", bus ? "0x" + bus->domain : "N/A");
      out += kv(2, "Device Id",
                g.pci_device_id && g.pci_vendor_id
                    ? "0x" + hex(*g.pci_device_id, 4) + hex(*g.pci_vendor_id, 4)
                    : "N/A");
      out += kv(2, "Bus Id", na(g.bus_id));
      out += section(2, "GPU Link Info") + section(3, "PCIe Generation");
      auto num = [](const std::optional<int>& v, const char* unit) {
        return v ? std::to_string(*v) + unit : std::string("N/A");
      };
      out += kv(4, "Max", num(g.pcie_gen_max, "")) + kv(4, "Current", num(g.pcie_gen_current, ""));
      out += section(3, "Link Width");
      out += kv(4, "Max", num(g.pcie_width_max, "x")) +
             kv(4, "Current", num(g.pcie_width_current, "x"));
    }
    if (!display.empty() &&
        !(display.size() == 1 && display[0] == "MEMORY" && g.q_sections.empty())) {
      out += displayed_sections(g, display);
    } else if (want("MEMORY")) {
      out += fb_memory_section(g) + bar1_memory_section();
    }
    if (display.empty()) out += kv(1, "Compute Mode", "Default");
    out += "\n";
  }
  return out;
}

std::string nvsmi_q_xml(const NvModel& m, const std::vector<int>& gpus, const std::string& when) {
  auto na = [](const std::string& s) { return s.empty() ? std::string("N/A") : xml_escape(s); };
  auto el = [](int depth, const std::string& tag, const std::string& v) {
    return std::string(depth, '\t') + "<" + tag + ">" + v + "</" + tag + ">\n";
  };
  std::string out =
      "<?xml version=\"1.0\" ?>\n<!DOCTYPE nvidia_smi_log SYSTEM \"nvsmi_device_v12.dtd\">\n";
  out += "<nvidia_smi_log>\n";
  out += el(1, "timestamp", nvsmi_clock_text(when));
  out += el(1, "driver_version", na(m.driver_version));
  out += el(1, "cuda_version", na(m.cuda_version));
  out += el(1, "attached_gpus", std::to_string(m.gpus.size()));
  for (int gi : gpus) {
    const NvGpu& g = m.gpus[gi];
    out += "\t<gpu id=\"" + na(g.bus_id) + "\">\n";
    out += el(2, "product_name", na(g.name));
    out += el(2, "product_architecture", architecture(g.compute_cap));
    std::string mig = g.migs.empty() ? "N/A" : "Enabled";
    out += "\t\t<mig_mode>\n" + el(3, "current_mig", mig) + el(3, "pending_mig", mig) +
           "\t\t</mig_mode>\n";
    out += "\t\t<mig_devices>\n";
    for (const NvMig& d : g.migs) {
      out +=
          "\t\t\t<mig_device>\n" + el(4, "index", std::to_string(d.device)) +
          el(4, "gpu_instance_id", d.gpu_instance_id ? std::to_string(*d.gpu_instance_id) : "N/A") +
          el(4, "compute_instance_id",
             d.compute_instance_id ? std::to_string(*d.compute_instance_id) : "N/A") +
          "\t\t\t\t<fb_memory_usage>\n" + el(5, "total", mib_text(d.total_mib)) +
          "\t\t\t\t</fb_memory_usage>\n\t\t\t</mig_device>\n";
    }
    out += "\t\t</mig_devices>\n";
    out += el(2, "uuid", na(g.uuid));
    out += el(2, "minor_number", std::to_string(g.index));
    auto bus = bus_parts(g.bus_id);
    out +=
        "\t\t<pci>\n" + el(3, "pci_bus", bus ? bus->bus : "N/A") +
        el(3, "pci_device", bus ? bus->device : "N/A") +
        el(3, "pci_domain", bus ? bus->domain : "N/A") +
        el(3, "pci_device_id",
           g.pci_device_id && g.pci_vendor_id ? hex(*g.pci_device_id, 4) + hex(*g.pci_vendor_id, 4)
                                              : "N/A") +
        el(3, "pci_bus_id", na(g.bus_id)) + "\t\t</pci>\n";
    out += "\t\t<fb_memory_usage>\n" + el(3, "total", mib_text(g.total_mib)) +
           el(3, "used", g.total_mib ? mib_text(g.used_mib) : "N/A") +
           el(3, "free", mib_text(g.free_mib)) + "\t\t</fb_memory_usage>\n";
    out += el(2, "compute_mode", "Default");
    out += "\t</gpu>\n";
  }
  out += "</nvidia_smi_log>\n";
  return out;
}

}  // namespace hwaccel::sim
