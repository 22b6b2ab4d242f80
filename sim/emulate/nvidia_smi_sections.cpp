#include "sim/emulate/nvidia_smi_sections.h"

#include <algorithm>
#include <map>

#include "src/probe/nvidia_smi_csv.h"

namespace hwaccel::sim {
namespace {

// -d's names and the sections each selects (-q's titles, in -q's order).
const std::map<std::string, std::vector<std::string>>& display_table() {
  static const std::map<std::string, std::vector<std::string>> t = {
      {"MEMORY", {"FB Memory Usage", "BAR1 Memory Usage", "Conf Compute Protected Memory Usage"}},
      {"UTILIZATION", {"Utilization"}},
      {"ECC", {"ECC Mode", "ECC Errors"}},
      {"TEMPERATURE", {"Temperature"}},
      {"POWER", {"GPU Power Readings", "GPU Memory Power Readings", "Module Power Readings"}},
      {"CLOCK",
       {"Clocks", "Applications Clocks", "Default Applications Clocks", "Deferred Clocks",
        "Max Clocks", "Max Customer Boost Clocks", "Clock Policy"}},
      {"COMPUTE", {"Compute Mode"}},
      {"PIDS", {"Processes"}},
      {"PERFORMANCE",
       {"Performance State", "Clocks Event Reasons", "Clocks Event Reasons Counters",
        "Sparse Operation Mode"}},
      {"SUPPORTED_CLOCKS", {"Supported Clocks"}},
      {"PAGE_RETIREMENT", {"Retired Pages"}},
      {"ACCOUNTING", {"Accounting Mode", "Accounting Mode Buffer Size"}},
      {"ENCODER_STATS", {"Encoder Stats"}},
      {"SUPPORTED_GPU_TARGET_TEMP", {"Supported GPU Target Temp"}},
      {"VOLTAGE", {"Voltage"}},
      {"FBC_STATS", {"FBC Stats"}},
      {"ROW_REMAPPER", {"Remapped Rows"}},
      {"GSP_FIRMWARE_VERSION", {"GSP Firmware Version"}},
      {"POWER_SMOOTHING", {"Power Smoothing"}},
      {"POWER_PROFILES", {"Workload Power Profiles"}},
  };
  return t;
}

// -q's sections in its order (the 590.48.01 capture), the ones it did not print
// (no data on that GPU) where nvidia-smi's XML schema puts them.
const std::vector<std::string>& q_order() {
  static const std::vector<std::string> order = {"Accounting Mode",
                                                 "Accounting Mode Buffer Size",
                                                 "GSP Firmware Version",
                                                 "Performance State",
                                                 "Clocks Event Reasons",
                                                 "Clocks Event Reasons Counters",
                                                 "Sparse Operation Mode",
                                                 "FB Memory Usage",
                                                 "BAR1 Memory Usage",
                                                 "Conf Compute Protected Memory Usage",
                                                 "Compute Mode",
                                                 "Utilization",
                                                 "Encoder Stats",
                                                 "FBC Stats",
                                                 "ECC Mode",
                                                 "ECC Errors",
                                                 "Retired Pages",
                                                 "Remapped Rows",
                                                 "Temperature",
                                                 "Supported GPU Target Temp",
                                                 "GPU Power Readings",
                                                 "GPU Memory Power Readings",
                                                 "Module Power Readings",
                                                 "Power Smoothing",
                                                 "Workload Power Profiles",
                                                 "Clocks",
                                                 "Applications Clocks",
                                                 "Default Applications Clocks",
                                                 "Deferred Clocks",
                                                 "Max Clocks",
                                                 "Max Customer Boost Clocks",
                                                 "Clock Policy",
                                                 "Voltage",
                                                 "Supported Clocks",
                                                 "Processes"};
  return order;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

// -q's "KEY : VALUE" with the colon at column 55 (nvidia_smi_query.cpp's layout).
std::string q_line(int level, const std::string& key, const std::string& value) {
  std::string line = std::string(4 * level, ' ') + key;
  if (line.size() < 55) line += std::string(55 - line.size(), ' ');
  return line + ": " + value + "\n";
}

// A recorded --query-gpu cell, with the unit -q prints (temperatures have none
// in the CSV, "C" in -q); N/A where not recorded.
std::string cell(const NvGpu& g, const std::string& field, const char* unit = "") {
  auto it = g.recorded.find(field);
  if (it == g.recorded.end() || is_no_value(it->second)) return "N/A";
  const std::string& v = it->second;
  return *unit && v.find(' ') == std::string::npos ? v + " " + unit : v;
}

}  // namespace

std::optional<std::vector<std::string>> display_sections(const std::string& display) {
  auto it = display_table().find(display);
  if (it == display_table().end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> displayed_titles(const std::vector<std::string>& display) {
  std::vector<std::string> asked;
  for (const auto& d : display)
    for (const auto& t : display_sections(d).value_or(std::vector<std::string>{}))
      asked.push_back(t);
  std::vector<std::string> titles;
  for (const auto& t : q_order())
    if (std::find(asked.begin(), asked.end(), t) != asked.end()) titles.push_back(t);
  return titles;
}

std::vector<std::pair<std::string, std::vector<NvQSection>>> recorded_q_sections(
    const std::string& q_output) {
  std::vector<std::pair<std::string, std::vector<NvQSection>>> gpus;
  std::size_t at = 0;
  while (at < q_output.size()) {
    auto end = q_output.find('\n', at);
    if (end == std::string::npos) end = q_output.size();
    const std::string line = q_output.substr(at, end - at);
    at = end + 1;
    if (line.rfind("GPU ", 0) == 0 && line.find(':') != std::string::npos) {
      gpus.emplace_back(trimmed(line.substr(4)), std::vector<NvQSection>{});
      continue;
    }
    if (gpus.empty() || line.empty()) continue;
    auto& sections = gpus.back().second;
    // A section starts at the GPU's level (four spaces); deeper lines are its own.
    if (line.size() > 4 && line.compare(0, 4, "    ") == 0 && line[4] != ' ') {
      auto colon = line.find(" : ");
      std::string title =
          trimmed(line.substr(4, colon == std::string::npos ? std::string::npos : colon - 4));
      sections.push_back({title, line + "\n"});
    } else if (line.size() > 8 && line.compare(0, 8, "        ") == 0 && !sections.empty()) {
      sections.back().text += line + "\n";
    }
  }
  return gpus;
}

std::string built_q_section(const NvGpu& g, const std::string& title) {
  if (title == "Temperature")
    return "    Temperature\n" + q_line(2, "GPU Current Temp", cell(g, "temperature.gpu", "C")) +
           q_line(2, "Memory Current Temp", cell(g, "temperature.memory", "C"));
  if (title == "GPU Power Readings")
    return "    GPU Power Readings\n" +
           q_line(2, "Average Power Draw", cell(g, "power.draw.average")) +
           q_line(2, "Instantaneous Power Draw", cell(g, "power.draw.instant")) +
           q_line(2, "Current Power Limit", cell(g, "power.limit")) +
           q_line(2, "Default Power Limit", cell(g, "power.default_limit")) +
           q_line(2, "Min Power Limit", cell(g, "power.min_limit")) +
           q_line(2, "Max Power Limit", cell(g, "power.max_limit"));
  if (title == "Clocks" || title == "Max Clocks") {
    const std::string at = title == "Clocks" ? "clocks.current." : "clocks.max.";
    std::string out = "    " + title + "\n" + q_line(2, "Graphics", cell(g, at + "graphics")) +
                      q_line(2, "SM", cell(g, at + "sm")) +
                      q_line(2, "Memory", cell(g, at + "memory"));
    if (title == "Clocks") out += q_line(2, "Video", cell(g, at + "video"));
    return out;
  }
  if (title == "Utilization")
    return "    Utilization\n" + q_line(2, "GPU", cell(g, "utilization.gpu")) +
           q_line(2, "Memory", cell(g, "utilization.memory")) +
           q_line(2, "Encoder", cell(g, "utilization.encoder")) +
           q_line(2, "Decoder", cell(g, "utilization.decoder"));
  if (title == "Performance State") return q_line(1, "Performance State", cell(g, "pstate"));
  if (title == "Compute Mode") {
    std::string mode = cell(g, "compute_mode");
    return q_line(1, "Compute Mode", mode == "N/A" ? "Default" : mode);
  }
  if (title == "Processes") {
    if (g.processes.empty()) return q_line(1, "Processes", "None");
    // The process block's own narrower layout (colon at column 39, real captures).
    auto row = [](int level, const std::string& key, const std::string& value) {
      std::string line = std::string(4 * level, ' ') + key;
      if (line.size() < 38) line += std::string(38 - line.size(), ' ');
      return line + ": " + value + "\n";
    };
    std::string out = "    Processes\n";
    for (const auto& p : g.processes) {
      out += row(2, "GPU instance ID", "N/A") + row(2, "Compute instance ID", "N/A");
      out += row(2, "Process ID", std::to_string(p.pid));
      out += row(3, "Type", "C") + row(3, "Name", p.name.empty() ? "N/A" : p.name);
      out += row(3, "Used GPU Memory",
                 p.used_bytes ? std::to_string(*p.used_bytes / (1024 * 1024)) + " MiB"
                              : std::string("N/A"));
    }
    return out;
  }
  return "";
}

}  // namespace hwaccel::sim
