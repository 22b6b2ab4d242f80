#include "nvml/nvml_q_facts.h"

#include <cmath>
#include <cstdlib>
#include <vector>

#include "src/probe/nvidia_smi_csv.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel::nvml {
namespace {

constexpr std::size_t kMaxGpus = 1024;

// -q's lines by their heading path ("Temperature/GPU Current Temp") -> the field.
const std::map<std::string_view, std::string_view>& q_fields() {
  static const std::map<std::string_view, std::string_view> table = {
      {"Display Mode", "display_mode"},
      {"Display Active", "display_active"},
      {"Persistence Mode", "persistence_mode"},
      {"Accounting Mode", "accounting.mode"},
      {"Accounting Mode Buffer Size", "accounting.buffer_size"},
      {"Serial Number", "serial"},
      {"VBIOS Version", "vbios_version"},
      {"MultiGPU Board", "q.multigpu_board"},
      {"Board ID", "q.board_id"},
      {"Board Part Number", "q.board_part_number"},
      {"GPU PDI", "q.pdi"},
      {"GSP Firmware Version", "q.gsp_firmware_version"},
      {"Fan Speed", "fan.speed"},
      {"Performance State", "pstate"},
      {"Compute Mode", "compute_mode"},
      {"Driver Model/Current", "driver_model.current"},
      {"Driver Model/Pending", "driver_model.pending"},
      {"Platform Info/Module Id", "platform.module_id"},
      {"Inforom Version/Image Version", "inforom.img"},
      {"Inforom Version/OEM Object", "inforom.oem"},
      {"Inforom Version/ECC Object", "inforom.ecc"},
      {"Inforom Version/Power Management Object", "inforom.pwr"},
      {"GPU Operation Mode/Current", "gom.current"},
      {"GPU Operation Mode/Pending", "gom.pending"},
      {"GPU Virtualization Mode/Virtualization Mode", "q.virtualization_mode"},
      {"GPU Virtualization Mode/Host VGPU Mode", "q.host_vgpu_mode"},
      {"PCI/GPU Link Info/PCIe Generation/Max", "pcie.link.gen.max"},
      {"PCI/GPU Link Info/PCIe Generation/Current", "pcie.link.gen.current"},
      {"PCI/GPU Link Info/PCIe Generation/Device Max", "pcie.link.gen.gpumax"},
      {"PCI/GPU Link Info/PCIe Generation/Device Current", "pcie.link.gen.gpucurrent"},
      {"PCI/GPU Link Info/Link Width/Max", "pcie.link.width.max"},
      {"PCI/GPU Link Info/Link Width/Current", "pcie.link.width.current"},
      {"PCI/Replays Since Reset", "q.pcie.replays"},
      {"PCI/Tx Throughput", "q.pcie.tx"},
      {"PCI/Rx Throughput", "q.pcie.rx"},
      {"Utilization/GPU", "utilization.gpu"},
      {"Utilization/Gpu", "utilization.gpu"},
      {"Utilization/Memory", "utilization.memory"},
      {"Utilization/Encoder", "utilization.encoder"},
      {"Utilization/Decoder", "utilization.decoder"},
      {"Utilization/JPEG", "utilization.jpeg"},
      {"Utilization/OFA", "utilization.ofa"},
      {"Encoder Stats/Active Sessions", "encoder.stats.sessionCount"},
      {"Encoder Stats/Average FPS", "encoder.stats.averageFps"},
      {"Encoder Stats/Average Latency", "encoder.stats.averageLatency"},
      {"FBC Stats/Active Sessions", "q.fbc.sessions"},
      {"FBC Stats/Average FPS", "q.fbc.fps"},
      {"FBC Stats/Average Latency", "q.fbc.latency"},
      {"DRAM Encryption Mode/Current", "dramEncryption.mode.current"},
      {"DRAM Encryption Mode/Pending", "dramEncryption.mode.pending"},
      {"ECC Mode/Current", "ecc.mode.current"},
      {"ECC Mode/Pending", "ecc.mode.pending"},
      {"ECC Errors/Volatile/SRAM Correctable", "ecc.errors.corrected.volatile.sram"},
      {"ECC Errors/Volatile/DRAM Correctable", "ecc.errors.corrected.volatile.dram"},
      {"ECC Errors/Volatile/DRAM Uncorrectable", "ecc.errors.uncorrected.volatile.dram"},
      {"ECC Errors/Aggregate/SRAM Correctable", "ecc.errors.corrected.aggregate.sram"},
      {"ECC Errors/Aggregate/DRAM Correctable", "ecc.errors.corrected.aggregate.dram"},
      {"ECC Errors/Aggregate/DRAM Uncorrectable", "ecc.errors.uncorrected.aggregate.dram"},
      {"ECC Errors/Volatile/SRAM Uncorrectable Parity",
       "ecc.errors.uncorrected.volatile.sram.parity"},
      {"ECC Errors/Volatile/SRAM Uncorrectable SEC-DED",
       "ecc.errors.uncorrected.volatile.sram.secded"},
      {"ECC Errors/Aggregate/SRAM Uncorrectable Parity",
       "ecc.errors.uncorrected.aggregate.sram.parity"},
      {"ECC Errors/Aggregate/SRAM Uncorrectable SEC-DED",
       "ecc.errors.uncorrected.aggregate.sram.secded"},
      {"ECC Errors/Aggregate/SRAM Threshold Exceeded",
       "ecc.errors.uncorrected.aggregate.sram.thresholdExceeded"},
      {"ECC Errors/Aggregate Uncorrectable SRAM Sources/SRAM L2",
       "ecc.errors.uncorrected.aggregate.sram.l2"},
      {"ECC Errors/Aggregate Uncorrectable SRAM Sources/SRAM SM",
       "ecc.errors.uncorrected.aggregate.sram.sm"},
      {"ECC Errors/Aggregate Uncorrectable SRAM Sources/SRAM Microcontroller",
       "ecc.errors.uncorrected.aggregate.sram.mcu"},
      {"ECC Errors/Aggregate Uncorrectable SRAM Sources/SRAM PCIE",
       "ecc.errors.uncorrected.aggregate.sram.pcie"},
      {"ECC Errors/Aggregate Uncorrectable SRAM Sources/SRAM Other",
       "ecc.errors.uncorrected.aggregate.sram.other"},
      {"ECC Errors/Channel Repair Pending", "q.channel_repair_pending"},
      {"ECC Errors/TPC Repair Pending", "q.tpc_repair_pending"},
      {"ECC Errors/Unrepairable Memory", "q.unrepairable_memory"},
      {"Retired Pages/Single Bit ECC", "retired_pages.single_bit_ecc.count"},
      {"Retired Pages/Double Bit ECC", "retired_pages.double_bit.count"},
      {"Retired Pages/Pending Page Blacklist", "retired_pages.pending"},
      {"Remapped Rows/Correctable Error", "remapped_rows.correctable"},
      {"Remapped Rows/Uncorrectable Error", "remapped_rows.uncorrectable"},
      {"Remapped Rows/Pending", "remapped_rows.pending"},
      {"Remapped Rows/Remapping Failure Occurred", "remapped_rows.failure"},
      {"Remapped Rows/Bank Remap Availability Histogram/Max", "remapped_rows.histogram.max"},
      {"Remapped Rows/Bank Remap Availability Histogram/High", "remapped_rows.histogram.high"},
      {"Remapped Rows/Bank Remap Availability Histogram/Partial",
       "remapped_rows.histogram.partial"},
      {"Remapped Rows/Bank Remap Availability Histogram/Low", "remapped_rows.histogram.low"},
      {"Remapped Rows/Bank Remap Availability Histogram/None", "remapped_rows.histogram.none"},
      {"Temperature/GPU Current Temp", "temperature.gpu"},
      {"Temperature/GPU T.Limit Temp", "temperature.gpu.tlimit"},
      {"Temperature/Memory Current Temp", "temperature.memory"},
      {"Temperature/GPU Shutdown Temp", "q.temperature.shutdown"},
      {"Temperature/GPU Slowdown Temp", "q.temperature.slowdown"},
      {"Temperature/GPU Max Operating Temp", "q.temperature.gpu_max"},
      {"Temperature/Memory Max Operating Temp", "q.temperature.memory_max"},
      {"GPU Power Readings/Power Draw", "power.draw"},
      {"GPU Power Readings/Average Power Draw", "power.draw.average"},
      {"GPU Power Readings/Instantaneous Power Draw", "power.draw.instant"},
      {"GPU Power Readings/Current Power Limit", "power.limit"},
      {"GPU Power Readings/Power Limit", "power.limit"},
      {"GPU Power Readings/Enforced Power Limit", "enforced.power.limit"},
      {"GPU Power Readings/Default Power Limit", "power.default_limit"},
      {"GPU Power Readings/Min Power Limit", "power.min_limit"},
      {"GPU Power Readings/Max Power Limit", "power.max_limit"},
      {"GPU Power Readings/Power Management", "power.management"},
      {"Power Readings/Power Draw", "power.draw"},
      {"Power Readings/Average Power Draw", "power.draw.average"},
      {"Power Readings/Instantaneous Power Draw", "power.draw.instant"},
      {"Power Readings/Power Limit", "power.limit"},
      {"Power Readings/Enforced Power Limit", "enforced.power.limit"},
      {"Power Readings/Default Power Limit", "power.default_limit"},
      {"Power Readings/Min Power Limit", "power.min_limit"},
      {"Power Readings/Max Power Limit", "power.max_limit"},
      {"Power Readings/Power Management", "power.management"},
      {"Clocks/Graphics", "clocks.current.graphics"},
      {"Clocks/SM", "clocks.current.sm"},
      {"Clocks/Memory", "clocks.current.memory"},
      {"Clocks/Video", "clocks.current.video"},
      {"Applications Clocks/Graphics", "clocks.applications.graphics"},
      {"Applications Clocks/Memory", "clocks.applications.memory"},
      {"Default Applications Clocks/Graphics", "clocks.default_applications.graphics"},
      {"Default Applications Clocks/Memory", "clocks.default_applications.memory"},
      {"Max Clocks/Graphics", "clocks.max.graphics"},
      {"Max Clocks/SM", "clocks.max.sm"},
      {"Max Clocks/Memory", "clocks.max.memory"},
      {"Max Clocks/Video", "q.clocks.max.video"},
      {"Max Customer Boost Clocks/Graphics", "q.clocks.boost.graphics"},
      {"Clock Policy/Auto Boost", "q.auto_boost"},
      {"Clock Policy/Auto Boost Default", "q.auto_boost_default"},
      {"GPU Virtualization Mode/vGPU Heterogeneous Mode", "q.vgpu_heterogeneous_mode"},
      {"Fabric/State", "fabric.state"},
      {"Fabric/Status", "fabric.status"},
      {"Fabric/CliqueId", "fabric.cliqueId"},
      {"Fabric/ClusterUUID", "fabric.clusterUuid"},
      {"Fabric/Health/Summary", "fabric.health.summary"},
      {"Fabric/Health/Bandwidth", "fabric.health.bandwidth"},
      {"Fabric/Health/Route Recovery in progress", "fabric.health.route_recovery_in_progress"},
      {"Fabric/Health/Route Unhealthy", "fabric.health.route_unhealthy"},
      {"Fabric/Health/Access Timeout Recovery", "fabric.health.access_timeout_recovery"},
      {"Fabric/Health/Incorrect Configuration", "fabric.health.incorrect_configuration"},
      {"Capabilities/EGM", "q.egm"},
      {"Conf Compute Protected Memory Usage/Total", "protected_memory.total"},
      {"Conf Compute Protected Memory Usage/Used", "protected_memory.used"},
      {"Conf Compute Protected Memory Usage/Free", "protected_memory.free"},
  };
  return table;
}

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
  std::string section;                // the heading at indent 4 the current line is under
  std::vector<std::string> headings;  // headings[n]: the heading at indent 4 * (n + 1)
  for (auto raw : split_lines(text)) {
    if (raw.size() > 4096) continue;
    std::size_t indent = indent_of(raw);
    auto line = trim(raw);
    if (line.empty()) continue;
    if (indent == 0 && line.rfind("GPU ", 0) == 0) {
      std::string bus = normalise_pci_bus_id(trim(line.substr(4)));
      gpu = bus.empty() || report.by_bus.size() >= kMaxGpus ? nullptr : &report.by_bus[bus];
      section.clear();
      headings.clear();
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
    if (indent % 4 != 0 || indent > 16) continue;
    const std::size_t level = indent / 4;
    headings.resize(level - 1);  // a line at this level closes the deeper headings
    if (!kv || trim(kv->value).empty()) {
      headings.push_back(std::string(trim(line.substr(0, 64))));
      if (indent == 4) section = headings.back();
      continue;
    }
    const auto key = kv->key;
    const auto value = trim(kv->value);
    std::string path;
    for (const auto& h : headings) path += h + "/";
    path += std::string(key.substr(0, 64));
    if (auto f = q_fields().find(path); f != q_fields().end() && value.size() < 128)
      gpu->cells[std::string(f->second)] = without_unit(value);
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
