// hl-smi on a simulated host.
//
// Sources (facts, not text): public `hl-smi` captures of HL-225 (Gaudi 2) and HL-205
// machines, SynapseAI 1.4 to 1.22, in Intel/Habana example READMEs found by the
// search tool (the 79-column box: "HL-SMI Version:" and "Driver Version:" lines,
// the "AIP  Name  Persistence-M | Bus-Id  Disp.A | Volatile Uncorr. ECC" header,
// two lines per device with "|---" separators, memory as "768MiB / 98304MiB");
// the 8x HL-325L `-Q ... -f csv` capture behind src/probe/hl_smi_csv.h (header
// "index, name, bus_id, memory.total [MiB], ...", cells "131072 MiB"). hl-smi's
// words for an unknown field or option, and for a host without the habanalabs
// driver, are in none of those sources: answered in nvidia-smi's words for the
// CSV query (the dialect hl-smi copies) and with a plain message, exit 1, else.
#include "sim/emulate/hl_smi.h"

#include <sstream>

#include "sim/emulate/emulate_common.h"

namespace hwaccel::sim {

namespace {

struct Aip {
  int index = 0;
  std::string name, bus_id, driver;
  std::optional<std::uint64_t> total, free;
};

std::vector<Aip> aips(const EmulatedHost& host) {
  std::vector<Aip> out;
  for (const Entry* e : emulate::devices_of(host.detection, "gaudi")) {
    if (e->status != EntryStatus::ready) continue;
    Aip a;
    a.index = static_cast<int>(out.size());
    // hwaccel names it "Intel Gaudi 3 (HL-325L)"; hl-smi prints the product, HL-325L.
    a.name = e->name;
    if (auto open = e->name.rfind('('); open != std::string::npos && e->name.back() == ')')
      a.name = e->name.substr(open + 1, e->name.size() - open - 2);
    a.bus_id = e->pci_bus_id;
    a.driver = e->driver_version;
    a.total = e->memory.total_bytes;
    a.free = e->memory.free_bytes;
    out.push_back(std::move(a));
  }
  return out;
}

std::string mib(const std::optional<std::uint64_t>& bytes) {
  return bytes ? std::to_string(emulate::mib_of(*bytes)) : "N/A";
}

std::optional<std::uint64_t> used_of(const Aip& a) {
  if (!a.total || !a.free || *a.free > *a.total) return std::nullopt;
  return *a.total - *a.free;
}

std::string table(const std::vector<Aip>& devices) {
  const std::string driver = devices.empty() ? "N/A" : devices.front().driver;
  const std::string release = driver.substr(0, driver.find('-'));
  const std::string rule =
      "|-------------------------------+----------------------+----------------------+\n";
  std::string out =
      "+-----------------------------------------------------------------------------+\n";
  out += "| " + emulate::pad_right("HL-SMI Version:", 45) +
         emulate::pad_right("hl-" + release, 31) + "|\n";
  out += "| " + emulate::pad_right("Driver Version:", 52) + emulate::pad_right(driver, 24) + "|\n";
  out += rule;
  out += "| AIP  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n";
  out += "| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | AIP-Util  Compute M. |\n";
  out += "|===============================+======================+======================|\n";
  for (const auto& a : devices) {
    out += "|" + emulate::pad_left(std::to_string(a.index), 4) + "  " +
           emulate::pad_right(a.name, 20) + "N/A  |" + " " + emulate::pad_right(a.bus_id, 17) +
           "N/A |" + emulate::pad_left("0", 20) + "  |\n";
    std::string memory = mib(used_of(a)) + "MiB / " + mib(a.total) + "MiB";
    out += "| N/A   N/A   N/A" + emulate::pad_left("N/A / N/A", 14) + " |" +
           emulate::pad_left(memory, 21) + " |" + emulate::pad_left("N/A", 7) +
           emulate::pad_left("N/A", 14) + " |\n";
    out += rule;
  }
  return out;
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, by);) out.push_back(part);
  if (!text.empty() && text.back() == by) out.emplace_back();
  return out;
}

// One cell of a -Q query, with its unit for the header ("" none); nullopt: no such field.
std::optional<std::pair<std::string, std::string>> cell(const Aip& a, const std::string& field) {
  using P = std::pair<std::string, std::string>;
  if (field == "index") return P{std::to_string(a.index), ""};
  if (field == "name") return P{a.name, ""};
  if (field == "bus_id") return P{a.bus_id, ""};
  if (field == "driver_version") return P{a.driver.empty() ? "N/A" : a.driver, ""};
  if (field == "uuid" || field == "serial" || field == "module_id") return P{"N/A", ""};
  if (field == "memory.total") return P{mib(a.total), "MiB"};
  if (field == "memory.free") return P{mib(a.free), "MiB"};
  if (field == "memory.used") return P{mib(used_of(a)), "MiB"};
  if (field == "temperature.aip") return P{"N/A", "C"};
  if (field == "utilization.aip") return P{"N/A", "%"};
  if (field == "power.draw" || field == "power.max") return P{"N/A", "W"};
  return std::nullopt;
}

ToolAnswer query(const std::vector<Aip>& devices, const std::string& fields,
                 const std::string& format) {
  std::vector<std::string> options = split(format, ',');
  if (options.empty() || options[0] != "csv")
    return emulate::usage_error("Invalid format: " + format + "\n", 2);
  bool header = true, units = true;
  for (std::size_t i = 1; i < options.size(); ++i) {
    if (options[i] == "noheader")
      header = false;
    else if (options[i] == "nounits")
      units = false;
    else
      return emulate::usage_error("Invalid format: " + format + "\n", 2);
  }
  std::vector<std::string> names = split(fields, ',');
  Aip probe;
  for (const auto& name : names)
    if (name.empty() || !cell(probe, name))
      return emulate::usage_error("Field \"" + name + "\" is not a valid field to query.\n\n", 2);
  std::string out;
  if (header) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      std::string unit = cell(probe, names[i])->second;
      out += (i ? ", " : "") + names[i] + (units && !unit.empty() ? " [" + unit + "]" : "");
    }
    out += "\n";
  }
  for (const auto& a : devices) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      auto [value, unit] = *cell(a, names[i]);
      out += (i ? ", " : "") + value + (units && !unit.empty() && value != "N/A" ? " " + unit : "");
    }
    out += "\n";
  }
  return {out, "", 0};
}

constexpr const char* kUsage =
    "usage: hl-smi [-h] [-Q FIELDS -f csv[,noheader][,nounits]] [-i BUS_ID] [-L] [-q]\n";

}  // namespace

ToolAnswer emulate_hl_smi(const EmulatedHost& host, const std::vector<std::string>& argv) {
  std::optional<std::string> fields, format;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "-h" || a == "--help") return {kUsage, "", 0};
    if ((a == "-Q" || a == "--query-aip") && i + 1 < argv.size()) {
      fields = argv[++i];
    } else if (a.starts_with("--query-aip=")) {
      fields = a.substr(12);
    } else if ((a == "-f" || a == "--format") && i + 1 < argv.size()) {
      format = argv[++i];
    } else if (a.starts_with("--format=")) {
      format = a.substr(9);
    } else {
      return emulate::usage_error(
          std::string(kUsage) + "hl-smi: error: unrecognized arguments: " + a + "\n", 2);
    }
  }
  if (fields.has_value() != format.has_value())
    return emulate::usage_error(std::string(kUsage) + "hl-smi: error: -Q and -f go together\n", 2);
  std::vector<Aip> devices = aips(host);
  if (devices.empty())
    return {"", "hl-smi: no Habana devices found (is the habanalabs driver loaded?)\n", 1};
  if (fields) return query(devices, *fields, *format);
  return {table(devices), "", 0};
}

}  // namespace hwaccel::sim
