// vulkaninfo on a simulated host.
//
// Sources (facts, not text): the `--summary` captures in fixtures/hosts/vulkan-*.yaml
// and the shapes listed in src/probe/vulkaninfo_summary.h (the "VULKANINFO" banner,
// "Vulkan Instance Version:", "Devices:" / "========" then "GPUn:" blocks of
// tab-indented "key = value" lines padded to the longest key); Khronos's
// Vulkan-Tools vulkaninfo/vulkaninfo.cpp (the full text's "Device Properties and
// Extensions" section with a "GPUn:" object per device; print_usage's text on
// stdout and exit 1 for --help and for any argument it does not know); the
// no-driver capture in fixtures/hosts/vulkan-no-driver.yaml ("Found no drivers!",
// "Cannot create Vulkan instance.", exit 1), answered to every argv.
//
// The devices come from the snapshot's own `vulkaninfo --summary` where it recorded
// one (it holds driver ids and UUIDs), else from hwaccel's vulkan devices.
#include "sim/emulate/vulkaninfo.h"

#include <algorithm>
#include <cstdio>

#include "sim/emulate/emulate_common.h"
#include "src/probe/vulkaninfo_summary.h"

namespace hwaccel::sim {

namespace {

const std::vector<std::string> kSummaryArgv = {"vulkaninfo", "--summary"};

std::vector<VulkanPhysicalDevice> gpus(const EmulatedHost& host) {
  if (const ToolEntry* run = emulate::recorded_ok(host.snapshot, kSummaryArgv)) {
    VulkanSummary parsed = parse_vulkaninfo_summary(run->run.out);
    if (!parsed.devices.empty()) return parsed.devices;
  }
  std::vector<VulkanPhysicalDevice> out;
  for (const Entry* e : emulate::devices_of(host.detection, "vulkan")) {
    VulkanPhysicalDevice d;
    d.index = static_cast<int>(out.size());
    d.name = e->name;
    d.vendor_id = e->pci_vendor_id;
    d.device_id = e->pci_device_id;
    d.api_version = e->compute_class.starts_with("vulkan-") ? e->compute_class.substr(7) : "1.3.0";
    d.driver_info = e->driver_version;
    const bool software = e->reason && e->reason->code == ReasonCode::no_backend;
    d.type = software                                ? "PHYSICAL_DEVICE_TYPE_CPU"
             : e->memory.kind == MemoryKind::unified ? "PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU"
                                                     : "PHYSICAL_DEVICE_TYPE_DISCRETE_GPU";
    std::string uuid = e->uuid.starts_with("GPU-") ? e->uuid.substr(4) : e->uuid;
    d.device_uuid = parse_vulkan_uuid(uuid);
    out.push_back(std::move(d));
  }
  return out;
}

std::string hex4(std::optional<std::uint32_t> v) {
  if (!v) return "0x0000";
  char b[16];
  std::snprintf(b, sizeof b, "0x%04x", *v);
  return b;
}

std::string instance_version(const EmulatedHost& host,
                             const std::vector<VulkanPhysicalDevice>& devices) {
  if (const ToolEntry* run = emulate::recorded_ok(host.snapshot, kSummaryArgv)) {
    const std::string& out = run->run.out;
    const std::string key = "Vulkan Instance Version: ";
    if (auto at = out.find(key); at != std::string::npos)
      return out.substr(at + key.size(), out.find('\n', at) - at - key.size());
  }
  std::string best = "1.3.0";
  for (const auto& d : devices)
    if (!d.api_version.empty() && d.api_version > best) best = d.api_version;
  return best;
}

// Tab-indented "key = value" lines, keys padded to the longest (vulkaninfo's text printer).
std::string block(const std::vector<std::pair<std::string, std::string>>& lines,
                  const char* indent) {
  std::size_t width = 0;
  for (const auto& l : lines) width = std::max(width, l.first.size());
  std::string out;
  for (const auto& [key, value] : lines)
    out += indent + emulate::pad_right(key, width) + " = " + value + "\n";
  return out;
}

std::vector<std::pair<std::string, std::string>> summary_lines(const VulkanPhysicalDevice& d) {
  std::vector<std::pair<std::string, std::string>> lines = {
      {"apiVersion", d.api_version},
      {"driverVersion", d.driver_version.empty() ? "0.0.0" : d.driver_version},
      {"vendorID", hex4(d.vendor_id)},
      {"deviceID", hex4(d.device_id)},
      {"deviceType", d.type},
      {"deviceName", d.name}};
  if (!d.driver_id.empty()) lines.emplace_back("driverID", d.driver_id);
  if (!d.driver_name.empty()) lines.emplace_back("driverName", d.driver_name);
  if (!d.driver_info.empty()) lines.emplace_back("driverInfo", d.driver_info);
  if (d.device_uuid) lines.emplace_back("deviceUUID", format_uuid(*d.device_uuid));
  return lines;
}

std::string banner(const std::string& version) {
  return "==========\nVULKANINFO\n==========\n\nVulkan Instance Version: " + version + "\n\n\n";
}

std::string summary(const std::string& version, const std::vector<VulkanPhysicalDevice>& devices) {
  std::string out = banner(version) + "Devices:\n========\n";
  for (const auto& d : devices)
    out += "GPU" + std::to_string(d.index) + ":\n" + block(summary_lines(d), "\t");
  return out;
}

std::string full(const std::string& version, const std::vector<VulkanPhysicalDevice>& devices) {
  std::string out =
      banner(version) + "Device Properties and Extensions:\n=================================\n";
  for (const auto& d : devices) {
    out += "GPU" + std::to_string(d.index) + ":\n";
    out += "VkPhysicalDeviceProperties:\n---------------------------\n";
    out += block({{"apiVersion", d.api_version},
                  {"driverVersion", d.driver_version.empty() ? "0.0.0" : d.driver_version},
                  {"vendorID", hex4(d.vendor_id)},
                  {"deviceID", hex4(d.device_id)},
                  {"deviceType", d.type},
                  {"deviceName", d.name}},
                 "\t");
    out += "\n";
    if (!d.driver_id.empty() || !d.driver_name.empty() || !d.driver_info.empty()) {
      out += "VkPhysicalDeviceDriverProperties:\n---------------------------------\n";
      std::vector<std::pair<std::string, std::string>> lines;
      if (!d.driver_id.empty()) lines.emplace_back("driverID", d.driver_id);
      if (!d.driver_name.empty()) lines.emplace_back("driverName", d.driver_name);
      if (!d.driver_info.empty()) lines.emplace_back("driverInfo", d.driver_info);
      out += block(lines, "\t") + "\n";
    }
    if (d.device_uuid) {
      out += "VkPhysicalDeviceIDProperties:\n-----------------------------\n";
      out += block({{"deviceUUID", format_uuid(*d.device_uuid)}}, "\t") + "\n";
    }
  }
  return out;
}

std::string usage(const std::string& argv0) {
  return "\nvulkaninfo - Summarize Vulkan information in relation to the current environment.\n\n"
         "USAGE: " +
         argv0 +
         " [options]\n\n"
         "OPTIONS:\n"
         "-h, --help            Print this help.\n"
         "--summary             Show a summary of the instance and GPU's on a system.\n"
         "-j, --json            Produce a json version of vulkaninfo output to standard output.\n"
         "--html                Produce an html version of vulkaninfo output, saved as\n"
         "                      \"vulkaninfo.html\" in the directory in which the command is\n"
         "                      run.\n"
         "--show-formats        Display the format properties of each physical device.\n\n";
}

}  // namespace

ToolAnswer emulate_vulkaninfo(const EmulatedHost& host, const std::vector<std::string>& argv) {
  // A recorded failure (no ICD, a broken driver) is what the loader says to any question.
  if (auto it = host.snapshot.tools.find(kSummaryArgv);
      it != host.snapshot.tools.end() && it->second.run.outcome == ToolOutcome::exited &&
      it->second.run.exit_code != 0)
    return {it->second.run.out, it->second.run.err, it->second.run.exit_code};
  bool want_summary = false;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    if (argv[i] == "--summary")
      want_summary = true;
    else if (argv[i] == "--show-formats")
      continue;
    else if (argv[i] == "-j" || argv[i].rfind("--json", 0) == 0)
      // Vulkan-Tools 1.3.2xx writes a Vulkan Profiles file
      // (VP_VULKANINFO_<device>_<driver>.json, Khronos's vulkaninfo docs); an
      // emulator answers with bytes only, so it says so rather than misanswer.
      return {"",
              "hwsim: vulkaninfo " + argv[i] +
                  ": not emulated (writes a VP_VULKANINFO_*.json profile file)\n",
              2};
    else
      return {usage(argv[0]), "", 1};
  }
  if (want_summary)
    if (const ToolEntry* run = emulate::recorded_ok(host.snapshot, kSummaryArgv))
      return {run->run.out, run->run.err, 0};
  std::vector<VulkanPhysicalDevice> devices = gpus(host);
  if (devices.empty())
    return {"",
            "ERROR: [Loader Message] Code 0 : vkCreateInstance: Found no drivers!\n"
            "Cannot create Vulkan instance.\n"
            "This problem is often caused by a faulty installation of the Vulkan driver or "
            "attempting to use a GPU "
            "that does not support Vulkan.\n",
            1};
  const std::string version = instance_version(host, devices);
  return {want_summary ? summary(version, devices) : full(version, devices), "", 0};
}

}  // namespace hwaccel::sim
