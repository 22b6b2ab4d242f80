#include "src/probe/vulkan_probe.h"

#include <algorithm>

#include "src/probe/apple_silicon.h"
#include "src/probe/pci_bus.h"
#include "src/probe/tool_outcome.h"
#include "src/probe/vulkan_icd_manifests.h"
#include "src/probe/vulkaninfo_summary.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::string_view kTool = "vulkaninfo";
constexpr std::string_view kApi = "vulkaninfo";

Warning vulkan_warning(std::string message) {
  return Warning{"vulkan", std::move(message)};
}

std::string vendor_name(std::optional<std::uint32_t> id) {
  if (!id) return "";
  switch (*id) {
    case 0x10de:
      return "NVIDIA";
    case 0x1002:
      return "AMD";
    case 0x8086:
      return "Intel";
    case 0x106b:
      return "Apple";
    case 0x13b5:
      return "ARM";
    case 0x5143:
      return "Qualcomm";
    case 0x1010:
      return "Imagination";
    case 0x14e4:
      return "Broadcom";
    case 0x10005:
      return "Mesa";  // VK_VENDOR_ID_MESA: llvmpipe, lavapipe
    case 0x1ae0:
      return "Google";  // SwiftShader
    default:
      break;
  }
  constexpr char kHex[] = "0123456789abcdef";
  std::string s = "0x";
  for (int shift = 12; shift >= 0; shift -= 4) s += kHex[(*id >> shift) & 0xf];
  return s;
}

bool is_amd_driver(const VulkanPhysicalDevice& d) {
  return d.vendor_id == 0x1002 &&
         (d.driver_id == "DRIVER_ID_MESA_RADV" || d.driver_id == "DRIVER_ID_AMD_PROPRIETARY" ||
          d.driver_id == "DRIVER_ID_AMD_OPEN_SOURCE");
}

class VulkanScan {
 public:
  VulkanScan(Host& host, ProbeResult& result) : host_(host), result_(result) {}

  void run() {
    // No driver manifest where the loader looks: no driver, and vulkaninfo
    // would only start to say so. (Not on macOS: MoltenVK is found otherwise.)
    if (host_.facts().os == "linux") {
      auto icd = find_vulkan_icd_manifests(host_);
      if (icd.result == IcdSearchResult::none)
        return fail({ReasonCode::driver_not_found, no_icd_manifest_reason(icd)});
      // Only CPU renderers, and Mesa GPU drivers with no GPU to drive (a
      // machine without one that has mesa-vulkan-drivers): vulkaninfo would
      // take 40 ms to list the CPU again.
      std::vector<std::string> manifest_problems;
      auto known = known_without_vulkaninfo(host_, icd, &manifest_problems);
      for (auto& p : manifest_problems) warn(std::move(p));
      if (known) {
        if (known->software.empty()) {
          std::string drivers;
          for (const auto& d : known->idle_drivers) drivers += (drivers.empty() ? "" : ", ") + d;
          return fail({ReasonCode::no_device,
                       "no Vulkan device: the installed drivers (" + drivers +
                           ") drive GPUs through a DRM render node and /sys/class/drm has none "
                           "(vulkaninfo not run)"});
        }
        for (std::size_t i = 0; i < known->software.size(); ++i)
          add_software(known->software[i], int(i));
        return set_backend_line();
      }
    }
    const std::vector<std::string> argv = {std::string(kTool), "--summary"};
    ToolRun run = host_.run(argv);
    const std::string provenance = "tool:vulkaninfo --summary";
    if (auto why = reason_for_tool_outcome(kTool, run)) return fail(*why);
    if (run.truncated)
      warn("vulkaninfo output was cut at the host's limit; devices may be missing");

    auto summary = parse_vulkaninfo_summary(run.out);
    if (!run.ok()) {
      if (auto known = known_vulkaninfo_error(combined_output(run))) return fail(*known);
      if (summary.devices.empty()) {
        std::string line = first_meaningful_line(combined_output(run), 160);
        return fail({ReasonCode::probe_failed, "vulkaninfo exited with status " +
                                                   std::to_string(run.exit_code) +
                                                   (line.empty() ? "" : ": " + line)});
      }
      warn("vulkaninfo exited with status " + std::to_string(run.exit_code) +
           " after listing its devices");
    }
    for (const auto& p : summary.problems) warn("vulkaninfo --summary: " + p);
    if (summary.devices.empty()) {
      if (!summary.devices_section)
        return fail({ReasonCode::probe_failed,
                     "vulkaninfo --summary printed no \"Devices:\" section (first line: \"" +
                         first_meaningful_line(run.out, 80) + "\")"});
      return fail({ReasonCode::no_device, "vulkaninfo lists no physical device"});
    }
    for (const auto& d : summary.devices) add(d, provenance);
    std::stable_sort(result_.entries.begin(), result_.entries.end(),
                     [](const Entry& a, const Entry& b) { return a.index < b.index; });
    set_backend_line();
  }

 private:
  Host& host_;
  ProbeResult& result_;
  std::optional<std::vector<PciDevice>> bus_;

  void warn(std::string message) { result_.warnings.push_back(vulkan_warning(std::move(message))); }

  void fail(Reason reason) {
    result_.backend.ready = false;
    result_.backend.reason = std::move(reason);
  }

  const std::vector<PciDevice>& bus() {
    if (!bus_) bus_ = scan_pci_bus(host_);
    return *bus_;
  }

  // The PCI address of a hardware device: AMD's UUID when the bus agrees (or
  // cannot be read), else the only display or accelerator function with the
  // same vendor and device id.
  std::string pci_address(const VulkanPhysicalDevice& d, Entry& e) {
    if (!d.vendor_id || !d.device_id || *d.vendor_id > 0xffff) return "";
    if (is_amd_driver(d) && d.device_uuid) {
      if (auto address = amd_vulkan_uuid_pci_address(*d.device_uuid)) {
        const auto& devices = bus();
        auto at = std::find_if(devices.begin(), devices.end(),
                               [&](const PciDevice& p) { return p.address == *address; });
        if (devices.empty() || (at != devices.end() && at->vendor == *d.vendor_id)) {
          e.provenance.push_back(
              "tool:vulkaninfo --summary (deviceUUID: AMD's PCI domain, bus, device, function)");
          return *address;
        }
      }
    }
    std::string match;
    int matches = 0;
    for (const auto& p : bus()) {
      if (p.vendor != *d.vendor_id || p.device != *d.device_id) continue;
      if (!p.is_display() && !p.is_accelerator()) continue;
      match = p.address;
      ++matches;
    }
    if (matches == 1) {
      e.provenance.push_back("file:" + std::string(kPciDevicesDir) + "/" + match +
                             " (the only function with this vendor and device id)");
      return match;
    }
    return "";
  }

  void add(const VulkanPhysicalDevice& d, const std::string& provenance) {
    Entry e;
    e.backend = "vulkan";
    e.api = std::string(kApi);
    e.index = d.index;
    e.name = d.name.empty() ? "Vulkan device " + std::to_string(d.index) : d.name;
    e.vendor = vendor_name(d.vendor_id);
    if (d.vendor_id && *d.vendor_id <= 0xffff) e.pci_vendor_id = std::uint16_t(*d.vendor_id);
    if (d.device_id && *d.device_id <= 0xffff && e.pci_vendor_id)
      e.pci_device_id = std::uint16_t(*d.device_id);
    e.driver_version = std::any_of(d.driver_info.begin(), d.driver_info.end(),
                                   [](char c) { return c >= '0' && c <= '9'; })
                           ? d.driver_info
                           : d.driver_version;
    if (!d.api_version.empty()) e.compute_class = "vulkan-" + d.api_version;
    e.provenance.push_back(provenance);
    e.memory.source = "not reported by vulkaninfo --summary";

    if (is_software_vulkan_device(d)) {
      // The CPU itself, through a software rasteriser: same physical device as cpu:0.
      e.type = DeviceType::cpu;
      e.physical_id = "cpu:0";
      e.memory.kind = MemoryKind::host;
      e.status = EntryStatus::unavailable;
      e.reason = Reason{ReasonCode::no_backend,
                        e.name + " is a software renderer (" + vulkan_device_type_text(d.type) +
                            (d.driver_name.empty() ? "" : ", driver " + d.driver_name) +
                            "), not an accelerator"};
      result_.entries.push_back(std::move(e));
      return;
    }

    e.type = d.type == "PHYSICAL_DEVICE_TYPE_OTHER" ? DeviceType::other : DeviceType::gpu;
    e.memory.kind = d.type == "PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU" ? MemoryKind::unified
                                                                    : MemoryKind::discrete;
    if (d.vendor_id == 0x10de && d.device_uuid) e.uuid = "GPU-" + format_uuid(*d.device_uuid);
    e.pci_bus_id = pci_address(d, e);
    // Without an address, an id of its own; the registry replaces it when the
    // UUID names a GPU another backend placed on the bus (NVIDIA).
    e.physical_id =
        e.pci_bus_id.empty() ? "vulkan:" + std::to_string(d.index) : "pci:" + e.pci_bus_id;
    // MoltenVK on Apple silicon: the SoC's GPU, which the apple backend names the same way.
    if (d.vendor_id == 0x106b && e.name.rfind("Apple M", 0) == 0)
      e.physical_id = apple_soc_physical_id(e.name, "gpu");
    result_.entries.push_back(std::move(e));
  }

  // A software renderer known from its driver's manifest, vulkaninfo not run.
  void add_software(const SoftwareIcd& icd, int index) {
    Entry e;
    e.backend = "vulkan";
    e.api = std::string(kApi);
    e.index = index;
    e.name = icd.renderer;
    e.vendor = icd.vendor;
    e.type = DeviceType::cpu;
    e.physical_id = "cpu:0";
    e.memory.kind = MemoryKind::host;
    e.memory.source = "not reported by a driver manifest";
    e.provenance.push_back("file:" + icd.manifest);
    e.status = EntryStatus::unavailable;
    e.reason = Reason{ReasonCode::no_backend, icd.renderer + " is a software renderer (" +
                                                  icd.driver + ", from " + icd.manifest +
                                                  "; vulkaninfo not run), not an accelerator"};
    result_.entries.push_back(std::move(e));
  }

  void set_backend_line() {
    auto& backend = result_.backend;
    backend.ready = std::any_of(result_.entries.begin(), result_.entries.end(),
                                [](const Entry& e) { return e.status == EntryStatus::ready; });
    if (backend.ready) return;
    std::string names;
    for (const auto& e : result_.entries) names += (names.empty() ? "" : ", ") + e.name;
    backend.reason = Reason{ReasonCode::no_backend, "only software renderers: " + names};
  }
};

}  // namespace

ProbeResult VulkanProbe::run(Host& host) const {
  ProbeResult result;
  result.backend.name = "vulkan";
  VulkanScan(host, result).run();
  return result;
}

}  // namespace hwaccel
