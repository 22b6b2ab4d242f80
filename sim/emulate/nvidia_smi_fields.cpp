#include "sim/emulate/nvidia_smi_fields.h"

#include <algorithm>
#include <array>

namespace hwaccel::sim {

namespace {

struct HelpEntry {
  std::string_view section;  // a "Section about SECTION properties" line; the rest ""
  std::string_view name, alias;
  std::string_view unit;  // as --format=csv's header gives it ("MiB"), or ""
};

// `nvidia-smi --help-query-gpu` of driver 590.48.01, in its order, with the
// aliases it lists ("name" or "gpu_name") and the unit each field's CSV header
// shows: the field names and sections of the help in
// /work/shared/real-captures/nvidia-smi__linux-x86_64__nvidia-h100-mig__590.48.01.txt
// (the H200 capture's list is the same) and the header of its --query-gpu run of
// every field. Generated from the capture; the descriptions are not carried over.
// clang-format off
constexpr HelpEntry kHelp[] = {
    {"", "timestamp", "", ""},
    {"", "driver_version", "", ""},
    {"vgpu_driver_capability", "", "", ""},
    {"", "vgpu_driver_capability.heterogenous_multivGPU", "", ""},
    {"", "count", "", ""},
    {"", "name", "gpu_name", ""},
    {"", "serial", "gpu_serial", ""},
    {"", "uuid", "gpu_uuid", ""},
    {"", "pci.bus_id", "gpu_bus_id", ""},
    {"", "pci.domain", "", ""},
    {"", "pci.bus", "", ""},
    {"", "pci.device", "", ""},
    {"", "pci.baseClass", "", ""},
    {"", "pci.subClass", "", ""},
    {"", "pci.device_id", "", ""},
    {"", "pci.sub_device_id", "", ""},
    {"vgpu_device_capability", "", "", ""},
    {"", "vgpu_device_capability.fractional_multiVgpu", "", ""},
    {"", "vgpu_device_capability.heterogeneous_timeSlice_profile", "", ""},
    {"", "vgpu_device_capability.heterogeneous_timeSlice_sizes", "", ""},
    {"", "vgpu_device_capability.homogeneous_placements", "", ""},
    {"", "vgpu_device_capability.mig_timeSlicing", "", ""},
    {"", "vgpu_device_capability.mig_timeSlicing_mode", "", ""},
    {"", "pcie.link.gen.current", "", ""},
    {"", "pcie.link.gen.gpucurrent", "", ""},
    {"", "pcie.link.gen.max", "", ""},
    {"", "pcie.link.gen.gpumax", "", ""},
    {"", "pcie.link.gen.hostmax", "", ""},
    {"", "pcie.link.width.current", "", ""},
    {"", "pcie.link.width.max", "", ""},
    {"", "index", "", ""},
    {"", "display_mode", "", ""},
    {"", "display_attached", "", ""},
    {"", "display_active", "", ""},
    {"", "persistence_mode", "", ""},
    {"", "addressing_mode", "", ""},
    {"", "accounting.mode", "", ""},
    {"", "accounting.buffer_size", "", ""},
    {"driver_model", "", "", ""},
    {"", "driver_model.current", "", ""},
    {"", "driver_model.pending", "", ""},
    {"", "vbios_version", "", ""},
    {"inforom", "", "", ""},
    {"", "inforom.img", "inforom.image", ""},
    {"", "inforom.oem", "", ""},
    {"", "inforom.ecc", "", ""},
    {"", "inforom.pwr", "inforom.power", ""},
    {"", "inforom.checksum_validation", "", ""},
    {"", "gpu_recovery_action", "", ""},
    {"gom", "", "", ""},
    {"", "gom.current", "gpu_operation_mode.current", ""},
    {"", "gom.pending", "gpu_operation_mode.pending", ""},
    {"", "fan.speed", "", "%"},
    {"", "pstate", "", ""},
    {"clocks_event_reasons", "", "", ""},
    {"", "clocks_event_reasons.supported", "clocks_throttle_reasons.supported", ""},
    {"", "clocks_event_reasons.active", "clocks_throttle_reasons.active", ""},
    {"", "clocks_event_reasons.gpu_idle", "clocks_throttle_reasons.gpu_idle", ""},
    {"", "clocks_event_reasons.applications_clocks_setting", "clocks_throttle_reasons.applications_clocks_setting", ""},
    {"", "clocks_event_reasons.sw_power_cap", "clocks_throttle_reasons.sw_power_cap", ""},
    {"", "clocks_event_reasons.hw_slowdown", "clocks_throttle_reasons.hw_slowdown", ""},
    {"", "clocks_event_reasons.hw_thermal_slowdown", "clocks_throttle_reasons.hw_thermal_slowdown", ""},
    {"", "clocks_event_reasons.hw_power_brake_slowdown", "clocks_throttle_reasons.hw_power_brake_slowdown", ""},
    {"", "clocks_event_reasons.sw_thermal_slowdown", "clocks_throttle_reasons.sw_thermal_slowdown", ""},
    {"", "clocks_event_reasons.sync_boost", "clocks_throttle_reasons.sync_boost", ""},
    {"clocks_event_reasons_counters", "", "", ""},
    {"", "clocks_event_reasons_counters.sw_power_cap", "", "us"},
    {"", "clocks_event_reasons_counters.sync_boost", "", "us"},
    {"", "clocks_event_reasons_counters.sw_thermal_slowdown", "", "us"},
    {"", "clocks_event_reasons_counters.hw_thermal_slowdown", "", "us"},
    {"", "clocks_event_reasons_counters.hw_power_brake_slowdown", "", "us"},
    {"memory", "", "", ""},
    {"", "memory.total", "", "MiB"},
    {"", "memory.reserved", "", "MiB"},
    {"", "memory.used", "", "MiB"},
    {"", "memory.free", "", "MiB"},
    {"", "compute_mode", "", ""},
    {"", "compute_cap", "", ""},
    {"utilization", "", "", ""},
    {"", "utilization.gpu", "", "%"},
    {"", "utilization.memory", "", "%"},
    {"", "utilization.encoder", "", "%"},
    {"", "utilization.decoder", "", "%"},
    {"", "utilization.jpeg", "", "%"},
    {"", "utilization.ofa", "", "%"},
    {"encoder.stats", "", "", ""},
    {"", "encoder.stats.sessionCount", "", ""},
    {"", "encoder.stats.averageFps", "", ""},
    {"", "encoder.stats.averageLatency", "", ""},
    {"dramEncryption.mode", "", "", ""},
    {"", "dramEncryption.mode.current", "", ""},
    {"", "dramEncryption.mode.pending", "", ""},
    {"ecc.mode", "", "", ""},
    {"", "ecc.mode.current", "", ""},
    {"", "ecc.mode.pending", "", ""},
    {"ecc.errors", "", "", ""},
    {"", "ecc.errors.corrected.volatile.device_memory", "", ""},
    {"", "ecc.errors.corrected.volatile.dram", "", ""},
    {"", "ecc.errors.corrected.volatile.register_file", "", ""},
    {"", "ecc.errors.corrected.volatile.l1_cache", "", ""},
    {"", "ecc.errors.corrected.volatile.l2_cache", "", ""},
    {"", "ecc.errors.corrected.volatile.texture_memory", "", ""},
    {"", "ecc.errors.corrected.volatile.cbu", "", ""},
    {"", "ecc.errors.corrected.volatile.sram", "", ""},
    {"", "ecc.errors.corrected.volatile.total", "", ""},
    {"", "ecc.errors.corrected.aggregate.device_memory", "", ""},
    {"", "ecc.errors.corrected.aggregate.dram", "", ""},
    {"", "ecc.errors.corrected.aggregate.register_file", "", ""},
    {"", "ecc.errors.corrected.aggregate.l1_cache", "", ""},
    {"", "ecc.errors.corrected.aggregate.l2_cache", "", ""},
    {"", "ecc.errors.corrected.aggregate.texture_memory", "", ""},
    {"", "ecc.errors.corrected.aggregate.cbu", "", ""},
    {"", "ecc.errors.corrected.aggregate.sram", "", ""},
    {"", "ecc.errors.corrected.aggregate.total", "", ""},
    {"", "ecc.errors.uncorrected.volatile.device_memory", "", ""},
    {"", "ecc.errors.uncorrected.volatile.dram", "", ""},
    {"", "ecc.errors.uncorrected.volatile.register_file", "", ""},
    {"", "ecc.errors.uncorrected.volatile.l1_cache", "", ""},
    {"", "ecc.errors.uncorrected.volatile.l2_cache", "", ""},
    {"", "ecc.errors.uncorrected.volatile.texture_memory", "", ""},
    {"", "ecc.errors.uncorrected.volatile.cbu", "", ""},
    {"", "ecc.errors.uncorrected.volatile.sram", "", ""},
    {"", "ecc.errors.uncorrected.volatile.total", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.device_memory", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.dram", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.register_file", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.l1_cache", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.l2_cache", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.texture_memory", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.cbu", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.sram", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.total", "", ""},
    {"", "ecc.errors.uncorrected.volatile.sram.parity", "", ""},
    {"", "ecc.errors.uncorrected.volatile.sram.secded", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.sram.parity", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.sram.secded", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.sram.thresholdExceeded", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.sram.l2", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.sram.sm", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.sram.mcu", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.sram.pcie", "", ""},
    {"", "ecc.errors.uncorrected.aggregate.sram.other", "", ""},
    {"retired_pages", "", "", ""},
    {"", "retired_pages.single_bit_ecc.count", "retired_pages.sbe", ""},
    {"", "retired_pages.double_bit.count", "retired_pages.dbe", ""},
    {"", "retired_pages.pending", "", ""},
    {"remapped_rows", "", "", ""},
    {"", "remapped_rows.correctable", "remapped_rows.sbe", ""},
    {"", "remapped_rows.uncorrectable", "remapped_rows.dbe", ""},
    {"", "remapped_rows.pending", "", ""},
    {"", "remapped_rows.failure", "", ""},
    {"remapped_rows.histogram", "", "", ""},
    {"", "remapped_rows.histogram.max", "", ""},
    {"", "remapped_rows.histogram.high", "", ""},
    {"", "remapped_rows.histogram.partial", "", ""},
    {"", "remapped_rows.histogram.low", "", ""},
    {"", "remapped_rows.histogram.none", "", ""},
    {"", "temperature.gpu", "", ""},
    {"", "temperature.gpu.tlimit", "", ""},
    {"", "temperature.memory", "", ""},
    {"", "power.management", "", ""},
    {"", "power.draw", "", "W"},
    {"", "power.draw.average", "gpu.power.draw.average", "W"},
    {"", "power.draw.instant", "gpu.power.draw.instant", "W"},
    {"", "power.limit", "gpu.power.requested_limit", "W"},
    {"", "enforced.power.limit", "gpu.power.current_limit", "W"},
    {"", "power.default_limit", "gpu.power.default_limit", "W"},
    {"", "power.min_limit", "gpu.power.min_limit", "W"},
    {"", "power.max_limit", "gpu.power.max_limit", "W"},
    {"", "module.power.draw.average", "", "W"},
    {"", "module.power.draw.instant", "", "W"},
    {"", "module.power.limit", "module.power.requested_limit", "W"},
    {"", "module.enforced.power.limit", "module.power.current_limit", "W"},
    {"", "module.power.default_limit", "", "W"},
    {"", "module.power.min_limit", "", "W"},
    {"", "module.power.max_limit", "", "W"},
    {"", "power_smoothing.delayed_power_smoothing_supported", "", ""},
    {"", "power_smoothing.primary_power_floor", "", "W"},
    {"", "power_smoothing.secondary_power_floor", "", "W"},
    {"", "power_smoothing.min_primary_floor_activation_offset", "", "W"},
    {"", "power_smoothing.min_primary_floor_activation_point", "", "W"},
    {"", "power_smoothing.window_multiplier", "", "ms"},
    {"", "power_smoothing.curr_profile.secondary_power_floor", "", "W"},
    {"", "power_smoothing.curr_profile.primary_floor_act_window_multiplier", "", ""},
    {"", "power_smoothing.curr_profile.primary_floor_tar_window_multiplier", "", ""},
    {"", "power_smoothing.curr_profile.primary_floor_act_offset", "", "W"},
    {"", "power_smoothing.admin_override.secondary_power_floor", "", "W"},
    {"", "power_smoothing.admin_override.primary_floor_act_window_multiplier", "", ""},
    {"", "power_smoothing.admin_override.primary_floor_tar_window_multiplier", "", ""},
    {"", "power_smoothing.admin_override.primary_floor_act_offset", "", "W"},
    {"", "edpp_multiplier", "", "%"},
    {"", "clocks.current.graphics", "clocks.gr", "MHz"},
    {"", "clocks.current.sm", "clocks.sm", "MHz"},
    {"", "clocks.current.memory", "clocks.mem", "MHz"},
    {"", "clocks.current.video", "clocks.video", "MHz"},
    {"clocks.applications", "", "", ""},
    {"", "clocks.applications.graphics", "clocks.applications.gr", "MHz"},
    {"", "clocks.applications.memory", "clocks.applications.mem", "MHz"},
    {"clocks.default_applications", "", "", ""},
    {"", "clocks.default_applications.graphics", "clocks.default_applications.gr", "MHz"},
    {"", "clocks.default_applications.memory", "clocks.default_applications.mem", "MHz"},
    {"clocks.max", "", "", ""},
    {"", "clocks.max.graphics", "clocks.max.gr", "MHz"},
    {"", "clocks.max.sm", "clocks.max.sm", "MHz"},
    {"", "clocks.max.memory", "clocks.max.mem", "MHz"},
    {"mig.mode", "", "", ""},
    {"", "mig.mode.current", "", ""},
    {"", "mig.mode.pending", "", ""},
    {"gsp.mode", "", "", ""},
    {"", "gsp.mode.current", "", ""},
    {"", "gsp.mode.default", "", ""},
    {"", "c2c.mode", "", ""},
    {"protected_memory", "", "", ""},
    {"", "protected_memory.total", "", "MiB"},
    {"", "protected_memory.used", "", "MiB"},
    {"", "protected_memory.free", "", "MiB"},
    {"", "fabric.state", "", ""},
    {"", "fabric.status", "", ""},
    {"", "fabric.cliqueId", "", ""},
    {"", "fabric.clusterUuid", "", ""},
    {"", "fabric.health.summary", "", ""},
    {"", "fabric.health.bandwidth", "", ""},
    {"", "fabric.health.route_recovery_in_progress", "", ""},
    {"", "fabric.health.route_unhealthy", "", ""},
    {"", "fabric.health.access_timeout_recovery", "", ""},
    {"", "fabric.health.incorrect_configuration", "", ""},
    {"platform", "", "", ""},
    {"", "platform.chassis_serial_number", "", ""},
    {"", "platform.slot_number", "", ""},
    {"", "platform.tray_index", "", ""},
    {"", "platform.host_id", "", ""},
    {"", "platform.peer_type", "", ""},
    {"", "platform.module_id", "", ""},
    {"", "platform.gpu_fabric_guid", "", ""},
    {"", "hostname", "", ""},
};
// clang-format on

// Fields newer than some drivers: those answer them as unknown. kmd_version is in
// the 595 captures' lists, not the 590 ones; compute_cap arrived with the 510
// branch (an older driver's refusal of it: real-captures/README.md).
struct Since {
  std::string_view name;
  int major;
};
constexpr Since kSince[] = {{"compute_cap", 510}, {"kmd_version", 595}};

int driver_major(std::string_view driver) {
  int major = 0;
  for (std::size_t i = 0; i < driver.size() && i < 4; ++i) {
    if (driver[i] < '0' || driver[i] > '9') break;
    major = major * 10 + (driver[i] - '0');
  }
  return major;
}

const HelpEntry* entry_of(std::string_view name) {
  for (const auto& e : kHelp)
    if (e.section.empty() && (e.name == name || (!e.alias.empty() && e.alias == name))) return &e;
  return nullptr;
}

}  // namespace

bool is_query_gpu_field(std::string_view name, std::string_view driver_version) {
  const int major = driver_major(driver_version);
  for (const auto& s : kSince)
    if (s.name == name) return major == 0 || major >= s.major;
  return entry_of(name) != nullptr;
}

std::string canonical_query_field(std::string_view name) {
  const HelpEntry* e = entry_of(name);
  return std::string(e ? e->name : name);
}

std::string query_field_unit(std::string_view canonical) {
  if (canonical == "kmd_version") return "";
  const HelpEntry* e = entry_of(canonical);
  return e ? std::string(e->unit) : "";
}

std::vector<std::string> query_gpu_fields() {
  std::vector<std::string> out;
  for (const auto& e : kHelp) {
    if (!e.section.empty()) continue;
    out.emplace_back(e.name);
    if (!e.alias.empty()) out.emplace_back(e.alias);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string help_query_gpu(std::string_view driver_version) {
  // The real layout: a heading, then per entry its quoted names on one line, a
  // description line and a blank line; sections the same with their heading.
  std::string out = "List of valid properties to query for the switch \"--query-gpu\":\n\n";
  auto entry = [&](std::string_view name, std::string_view alias, std::string_view unit) {
    out += "\"" + std::string(name) + "\"";
    if (!alias.empty()) out += " or \"" + std::string(alias) + "\"";
    out += "\nThe GPU's " + std::string(name) +
           (unit.empty() ? std::string() : " in " + std::string(unit)) + ".\n\n";
  };
  for (const auto& e : kHelp) {
    if (!e.section.empty()) {
      out += "Section about " + std::string(e.section) + " properties\nThe " +
             std::string(e.section) + " fields below.\n\n";
      continue;
    }
    entry(e.name, e.alias, e.unit);
    // kmd_version follows driver_version where the driver has it.
    if (e.name == "driver_version" && is_query_gpu_field("kmd_version", driver_version) &&
        driver_major(driver_version) != 0)
      entry("kmd_version", "", "");
  }
  return out;
}

}  // namespace hwaccel::sim
