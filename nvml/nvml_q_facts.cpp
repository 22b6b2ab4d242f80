#include "nvml/nvml_q_facts.h"

#include <cmath>
#include <cstdlib>

#include "src/probe/nvidia_smi_csv.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel::nvml {
namespace {

constexpr std::size_t kMaxGpus = 1024;

std::size_t indent_of(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

// "345 MHz", "42 C", "7 %" -> the number before `unit`.
std::optional<unsigned> number_with(std::string_view value, std::string_view unit) {
  value = trim(value);
  if (value.size() <= unit.size() || value.substr(value.size() - unit.size()) != unit)
    return std::nullopt;
  auto n = parse_u64(trim(value.substr(0, value.size() - unit.size())));
  if (!n || *n > 1000000) return std::nullopt;
  return static_cast<unsigned>(*n);
}

// "72.63 W" -> 72630 (milliwatts).
std::optional<unsigned> milliwatts(std::string_view value) {
  value = trim(value);
  if (value.size() < 3 || value.substr(value.size() - 2) != " W") return std::nullopt;
  std::string number(value.substr(0, value.size() - 2));
  if (number.empty() || number.find_first_not_of("0123456789.") != std::string::npos)
    return std::nullopt;
  double watts = std::strtod(number.c_str(), nullptr);
  if (!(watts >= 0 && watts < 1e6)) return std::nullopt;
  return static_cast<unsigned>(std::lround(watts * 1000));
}

std::optional<int> compute_mode_of(std::string_view value) {
  if (value == "Default") return 0;
  if (value == "Exclusive_Thread") return 1;
  if (value == "Prohibited") return 2;
  if (value == "Exclusive_Process") return 3;
  return std::nullopt;
}

}  // namespace

QReport parse_q_facts(std::string_view text) {
  QReport report;
  QFacts* gpu = nullptr;
  std::string section;  // the heading at indent 4 the current line is under
  for (auto raw : split_lines(text)) {
    if (raw.size() > 4096) continue;
    std::size_t indent = indent_of(raw);
    auto line = trim(raw);
    if (line.empty()) continue;
    if (indent == 0 && line.rfind("GPU ", 0) == 0) {
      std::string bus = normalise_pci_bus_id(trim(line.substr(4)));
      gpu = bus.empty() || report.by_bus.size() >= kMaxGpus ? nullptr : &report.by_bus[bus];
      section.clear();
      continue;
    }
    auto kv = split_key_value(line);
    if (indent == 0) {  // the header, or whatever follows the last GPU
      if (kv && kv->key == "CUDA Version" && kv->value.size() < 16)
        report.cuda_version = std::string(kv->value);
      gpu = nullptr;
      continue;
    }
    if (!gpu) continue;
    if (indent == 4 && (!kv || trim(kv->value).empty())) {
      section = std::string(line.substr(0, 64));
      continue;
    }
    if (!kv) continue;
    const auto key = kv->key;
    const auto value = trim(kv->value);
    if (indent == 4) {
      if (key == "Persistence Mode" && (value == "Enabled" || value == "Disabled"))
        gpu->persistence = value == "Enabled";
      else if (key == "Compute Mode")
        gpu->compute_mode = compute_mode_of(value);
      else if (key == "Serial Number" && !is_no_value(value) && value.size() < 30)
        gpu->serial = std::string(value);
      else if (key == "Minor Number")
        if (auto n = parse_u64(value); n && *n < 256) gpu->minor_number = unsigned(*n);
      if (key == "Addressing Mode" && (value == "None" || value == "HMM" || value == "ATS"))
        gpu->addressing_mode = std::string(value);
      continue;
    }
    if (indent != 8) continue;
    if (section == "BAR1 Memory Usage") {
      auto bytes = parse_memory_bytes(value, "");
      if (key == "Total") gpu->bar1_total = bytes;
      if (key == "Used") gpu->bar1_used = bytes;
      if (key == "Free") gpu->bar1_free = bytes;
    } else if (section == "FB Memory Usage" && key == "Reserved") {
      gpu->fb_reserved = parse_memory_bytes(value, "");
    } else if (section == "Temperature" && key == "GPU Current Temp") {
      gpu->temperature_c = number_with(value, " C");
    } else if (section == "GPU Power Readings" || section == "Power Readings") {
      // Drivers before 535 print one "Power Draw"; later ones the instantaneous one too.
      if (key == "Instantaneous Power Draw" || (key == "Power Draw" && !gpu->power_mw))
        if (auto mw = milliwatts(value)) gpu->power_mw = mw;
      if (key == "Current Power Limit" || key == "Power Limit")
        if (auto mw = milliwatts(value)) gpu->power_limit_mw = mw;
    } else if (section == "Clocks") {
      if (key == "Graphics") gpu->clock_graphics_mhz = number_with(value, " MHz");
      if (key == "SM") gpu->clock_sm_mhz = number_with(value, " MHz");
      if (key == "Memory") gpu->clock_memory_mhz = number_with(value, " MHz");
    } else if (section == "Utilization") {
      if (key == "GPU" || key == "Gpu") gpu->utilization_gpu = number_with(value, " %");
      if (key == "Memory") gpu->utilization_memory = number_with(value, " %");
    }
  }
  return report;
}

}  // namespace hwaccel::nvml
