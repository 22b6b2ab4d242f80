// What `vulkaninfo --summary` prints: the loader's instance version, the instance
// extensions, then one block per physical device of each installed driver (ICD),
// in the layout of Vulkan-Tools' summary (the llvmpipe-only fixture is a real
// recording; vulkan-desktop, meteor-lake-npu and mac-studio-m2-ultra cite theirs).
// Hardware drivers list the spec's devices of their vendor in PCI order (nvk and
// nvidia: NVIDIA GPUs, radv: AMD, anv: Intel, moltenvk: Apple); llvmpipe, the CPU
// renderer, comes last. No `vulkan` key: no loader, vulkaninfo not found; an empty
// driver list: the loader's "Found no drivers!" failure.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>

#include "sim/synth_parts.h"
#include "src/host/snapshot_host.h"
#include "src/probe/vulkan_icd_manifests.h"

namespace hwaccel::sim::detail {
namespace {

// The instance extensions of Mesa's loader setup on Linux (the llvmpipe-only recording).
constexpr const char* kInstanceExtensions =
    "VK_EXT_acquire_drm_display             : extension revision 1\n"
    "VK_EXT_acquire_xlib_display            : extension revision 1\n"
    "VK_EXT_debug_report                    : extension revision 10\n"
    "VK_EXT_debug_utils                     : extension revision 2\n"
    "VK_EXT_direct_mode_display             : extension revision 1\n"
    "VK_EXT_display_surface_counter         : extension revision 1\n"
    "VK_KHR_device_group_creation           : extension revision 1\n"
    "VK_KHR_display                         : extension revision 23\n"
    "VK_KHR_external_fence_capabilities     : extension revision 1\n"
    "VK_KHR_external_memory_capabilities    : extension revision 1\n"
    "VK_KHR_external_semaphore_capabilities : extension revision 1\n"
    "VK_KHR_get_display_properties2         : extension revision 1\n"
    "VK_KHR_get_physical_device_properties2 : extension revision 2\n"
    "VK_KHR_get_surface_capabilities2       : extension revision 1\n"
    "VK_KHR_portability_enumeration         : extension revision 1\n"
    "VK_KHR_surface                         : extension revision 25\n"
    "VK_KHR_surface_protected_capabilities  : extension revision 1\n"
    "VK_KHR_wayland_surface                 : extension revision 6\n"
    "VK_KHR_xcb_surface                     : extension revision 6\n"
    "VK_KHR_xlib_surface                    : extension revision 6\n";

struct VkDevice {
  std::string api, driver_version, vendor, device, type, name, driver_id, driver_name, driver_info,
      conformance, device_uuid, driver_uuid;
};

std::string uuid_from(std::uint64_t a, std::uint64_t b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", unsigned(a >> 32),
                unsigned((a >> 16) & 0xffff), unsigned(a & 0xffff), unsigned(b >> 48),
                static_cast<unsigned long long>(b & 0xffffffffffffull));
  return buf;
}

// Bytes of TEXT as a UUID, zero-padded (llvmpipe's deviceUUID is "mesa" + the version).
std::string uuid_of_text(const std::string& text) {
  unsigned char bytes[16] = {};
  for (std::size_t i = 0; i < 16 && i < text.size(); ++i) bytes[i] = text[i];
  char buf[64];
  std::snprintf(buf, sizeof buf,
                "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", bytes[0],
                bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]);
  return buf;
}

std::string mesa_number(const std::string& mesa) {
  return mesa.substr(0, mesa.find('-'));
}

VkDevice mesa_device(const Plan& plan, const Device& d, const VulkanSpec& vk, int salt) {
  VkDevice v;
  v.api = vk.api;
  v.driver_version = mesa_number(vk.mesa);
  v.device = hex_id(d.sku->pci_device, 4);
  v.driver_info = "Mesa " + vk.mesa;
  v.device_uuid = uuid_from(mix(plan.seed, 700 + salt), mix(plan.seed, 800 + salt));
  v.driver_uuid = uuid_from(mix(plan.seed, 900), mix(plan.seed, 901));
  return v;
}

std::string chip_of(const Sku& sku) {
  if (!sku.chip.empty()) return std::string(sku.chip);
  std::string id(sku.id);
  for (auto& c : id) c = char(std::toupper(static_cast<unsigned char>(c)));
  return id;
}

std::vector<VkDevice> devices(const Plan& plan, const VulkanSpec& vk) {
  std::vector<VkDevice> out;
  int salt = 0;
  for (const auto& driver : vk.drivers) {
    if (driver == "nvk" || driver == "nvidia") {
      for (const auto& d : plan.nvidia) {
        VkDevice v = mesa_device(plan, d, vk, salt++);
        v.vendor = "0x10de";
        v.type = d.sku->memory_mib ? "PHYSICAL_DEVICE_TYPE_DISCRETE_GPU"
                                   : "PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU";
        if (driver == "nvk") {
          v.name = std::string(d.sku->name) + " (NVK " + chip_of(*d.sku) + ")";
          v.driver_id = "DRIVER_ID_MESA_NVK", v.driver_name = "NVK";
          v.conformance = "1.3.8.2";
        } else {
          auto it = plan.spec->drivers.find("nvidia");
          const std::string version = it != plan.spec->drivers.end() && !it->second.version.empty()
                                          ? it->second.version
                                          : std::string(d.sku->driver);
          v.name = std::string(d.sku->name);
          v.driver_id = "DRIVER_ID_NVIDIA_PROPRIETARY", v.driver_name = "NVIDIA";
          v.driver_info = v.driver_version = version;
          v.conformance = "1.3.8.3";
        }
        out.push_back(v);
      }
    } else if (driver == "radv") {
      for (const auto& d : plan.amd) {
        VkDevice v = mesa_device(plan, d, vk, salt++);
        v.vendor = "0x1002";
        v.type = d.sku->apu ? "PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU"
                            : "PHYSICAL_DEVICE_TYPE_DISCRETE_GPU";
        v.name = std::string(d.sku->name) + " (RADV " + chip_of(*d.sku) + ")";
        v.driver_id = "DRIVER_ID_MESA_RADV", v.driver_name = "radv";
        v.conformance = "1.3.0.0";
        out.push_back(v);
      }
    } else if (driver == "anv") {
      for (const auto& d : plan.intel_gpu) {
        VkDevice v = mesa_device(plan, d, vk, salt++);
        v.vendor = "0x8086";
        v.type = d.sku->apu ? "PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU"
                            : "PHYSICAL_DEVICE_TYPE_DISCRETE_GPU";
        v.name = std::string(d.sku->vk_name.empty() ? d.sku->name : d.sku->vk_name);
        v.driver_id = "DRIVER_ID_INTEL_OPEN_SOURCE_MESA";
        v.driver_name = "Intel open-source Mesa driver";
        v.conformance = "1.3.6.0";
        out.push_back(v);
      }
    } else if (driver == "moltenvk") {
      // MoltenVK reports Vulkan 1.2 with the loader's patch level, Apple's vendor id, a
      // 32-bit device id and a UUID built from both (the mac-studio-m2-ultra fixture's).
      for (const auto& d : plan.apple) {
        VkDevice v;
        const std::string patch = vk.instance.substr(vk.instance.rfind('.') + 1);
        char id[16], uuid[64];
        std::snprintf(id, sizeof id, "0x%08x", unsigned(d.sku->vk_device_id));
        std::snprintf(uuid, sizeof uuid, "0000106b-%04x-%04x-0000-000000000000",
                      unsigned(d.sku->vk_device_id >> 16), unsigned(d.sku->vk_device_id & 0xffff));
        v.api = "1.2." + patch, v.driver_version = "0.2.2208", v.vendor = "0x106b";
        v.device = id, v.type = "PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU";
        v.name = std::string(d.sku->name), v.driver_id = "DRIVER_ID_MOLTENVK";
        v.driver_name = "MoltenVK", v.driver_info = vk.moltenvk, v.conformance = "1.2.0.0";
        v.device_uuid = uuid, v.driver_uuid = "4d564b00-0000-2808-0000-000000000000";
        out.push_back(v);
      }
    }
  }
  for (const auto& driver : vk.drivers) {
    if (driver != "llvmpipe") continue;
    VkDevice v;
    v.api = vk.api, v.driver_version = "0.0.1", v.vendor = "0x10005", v.device = "0x0000";
    v.type = "PHYSICAL_DEVICE_TYPE_CPU";
    v.name = "llvmpipe (LLVM " + vk.llvm + ", 256 bits)";
    v.driver_id = "DRIVER_ID_MESA_LLVMPIPE", v.driver_name = "llvmpipe";
    v.driver_info = "Mesa " + vk.mesa + " (LLVM " + vk.llvm + ")", v.conformance = "1.3.1.1";
    v.device_uuid = uuid_of_text("mesa" + mesa_number(vk.mesa));
    v.driver_uuid = uuid_of_text("llvmpipeUUID");
    out.push_back(v);
  }
  return out;
}

std::string summary(const Plan& plan, const VulkanSpec& vk) {
  std::string out =
      "==========\nVULKANINFO\n==========\n\nVulkan Instance Version: " + vk.instance + "\n\n\n";
  if (plan.spec->os == "linux") {
    int count = 0;
    for (const char* p = kInstanceExtensions; *p; ++p) count += *p == '\n';
    const std::string head = "Instance Extensions: count = " + std::to_string(count);
    out += head + "\n" + std::string(head.size(), '-') + "\n" + kInstanceExtensions + "\n";
  }
  out += "Devices:\n========\n";
  const auto list = devices(plan, vk);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const VkDevice& v = list[i];
    out += "GPU" + std::to_string(i) + ":\n";
    out += "\tapiVersion         = " + v.api + "\n";
    out += "\tdriverVersion      = " + v.driver_version + "\n";
    out += "\tvendorID           = " + v.vendor + "\n";
    out += "\tdeviceID           = " + v.device + "\n";
    out += "\tdeviceType         = " + v.type + "\n";
    out += "\tdeviceName         = " + v.name + "\n";
    out += "\tdriverID           = " + v.driver_id + "\n";
    out += "\tdriverName         = " + v.driver_name + "\n";
    out += "\tdriverInfo         = " + v.driver_info + "\n";
    out += "\tconformanceVersion = " + v.conformance + "\n";
    out += "\tdeviceUUID         = " + v.device_uuid + "\n";
    out += "\tdriverUUID         = " + v.driver_uuid + "\n";
  }
  return out;
}

// Where a distribution package installs each driver's manifest, and the library
// it names (Debian's mesa-vulkan-drivers and nvidia-vulkan-icd).
struct Manifest {
  std::string name, library;
};
std::optional<Manifest> manifest_of(const std::string& driver, const std::string& arch) {
  const std::string lib = "/usr/lib/" + arch + "-linux-gnu/";
  if (driver == "nvidia") return Manifest{"nvidia_icd.json", "libGLX_nvidia.so.0"};
  if (driver == "radv")
    return Manifest{"radeon_icd." + arch + ".json", lib + "libvulkan_radeon.so"};
  if (driver == "anv") return Manifest{"intel_icd." + arch + ".json", lib + "libvulkan_intel.so"};
  if (driver == "nvk")
    return Manifest{"nouveau_icd." + arch + ".json", lib + "libvulkan_nouveau.so"};
  if (driver == "llvmpipe") return Manifest{"lvp_icd." + arch + ".json", lib + "libvulkan_lvp.so"};
  return std::nullopt;  // moltenvk: macOS, whose loader is not searched this way
}

// The loader's folders as a recorder since the manifest search writes them: the
// drivers' manifests in /usr/share/vulkan/icd.d, every other folder absent.
// False when no driver has a manifest here (vulkaninfo need not run).
bool add_manifest_folders(const Plan& plan, const VulkanSpec& vk, Snapshot& s) {
  const std::string shared = "/usr/share/vulkan/icd.d";
  std::vector<std::string> names;
  for (const auto& d : vk.drivers) {
    auto m = manifest_of(d, plan.spec->arch);
    if (!m) continue;
    names.push_back(m->name);
    s.files[shared + "/" + m->name] =
        FileEntry::of_content("{\n    \"ICD\": {\n        \"api_version\": \"" + vk.api +
                              "\",\n        \"library_path\": \"" + m->library +
                              "\"\n    },\n    \"file_format_version\": \"1.0.0\"\n}\n");
  }
  SnapshotHost host(s);
  for (const auto& place : find_vulkan_icd_manifests(host).places)
    if (place != shared || names.empty()) s.files[place] = FileEntry::of_absent();
  if (!names.empty()) {
    std::sort(names.begin(), names.end());
    s.files[shared] = FileEntry::of_dir(names);
  }
  return !names.empty();
}

}  // namespace

void add_vulkan(const Plan& plan, Snapshot& s) {
  ToolEntry t;
  t.argv = {"vulkaninfo", "--summary"};
  const auto& vk = plan.spec->vulkan;
  if (vk && vk->manifest_folders && plan.spec->os == "linux" && !add_manifest_folders(plan, *vk, s))
    return;  // no manifest: the probe says so, and vulkaninfo never ran
  if (!vk || !tool_installed(*plan.spec, "vulkaninfo", true)) {
    t.run.outcome = ToolOutcome::not_found;
    s.tools[t.argv] = t;
    return;
  }
  t.run.ms = 240;
  if (vk->drivers.empty()) {
    t.run.exit_code = 1;
    t.run.ms = 34;
    t.run.err =
        "ERROR: [Loader Message] Code 0 : vkCreateInstance: Found no drivers!\n"
        "Cannot create Vulkan instance.\n"
        "This problem is often caused by a faulty installation of the Vulkan driver or "
        "attempting to use a GPU that does not support Vulkan.\n"
        "ERROR at ./vulkaninfo/vulkaninfo.h:674:vkCreateInstance failed with "
        "ERROR_INCOMPATIBLE_DRIVER\n";
  } else {
    t.run.out = summary(plan, *vk);
    // Without a display server the summary still comes, with this note first.
    const auto& env = s.env;
    if (plan.spec->os == "linux" && !env.count("DISPLAY") && !env.count("WAYLAND_DISPLAY"))
      t.run.err = "'DISPLAY' environment variable not set... skipping surface info\n";
  }
  s.tools[t.argv] = t;
}

}  // namespace hwaccel::sim::detail
