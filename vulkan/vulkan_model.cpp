#include "vulkan/vulkan_model.h"

#include <algorithm>

#include "src/plan/catalogue.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel::vulkan {
namespace {

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
constexpr std::size_t kMaxNameBytes = 255;  // VK_MAX_PHYSICAL_DEVICE_NAME_SIZE less the NUL
constexpr std::uint32_t kVendorMesa = 0x10005;
constexpr std::uint32_t kDriverIdLlvmpipe = 13;

// VkDriverId's names in the order of their values (1...), from the specification.
constexpr std::string_view kDriverIds[] = {
    "AMD_PROPRIETARY",
    "AMD_OPEN_SOURCE",
    "MESA_RADV",
    "NVIDIA_PROPRIETARY",
    "INTEL_PROPRIETARY_WINDOWS",
    "INTEL_OPEN_SOURCE_MESA",
    "IMAGINATION_PROPRIETARY",
    "QUALCOMM_PROPRIETARY",
    "ARM_PROPRIETARY",
    "GOOGLE_SWIFTSHADER",
    "GGP_PROPRIETARY",
    "BROADCOM_PROPRIETARY",
    "MESA_LLVMPIPE",
    "MOLTENVK",
    "COREAVI_PROPRIETARY",
    "JUICE_PROPRIETARY",
    "VERISILICON_PROPRIETARY",
    "MESA_TURNIP",
    "MESA_V3DV",
    "MESA_PANVK",
    "SAMSUNG_PROPRIETARY",
    "MESA_VENUS",
    "MESA_DOZEN",
    "MESA_NVK",
    "IMAGINATION_OPEN_SOURCE_MESA",
    "MESA_HONEYKRISP",
};

// Up to `max` dot-separated decimal numbers, each at most `limit`; nullopt otherwise.
std::optional<std::vector<std::uint32_t>> dotted_numbers(std::string_view text, std::size_t max) {
  std::vector<std::uint32_t> parts;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t dot = text.find('.', at);
    std::string_view part = text.substr(at, dot == std::string_view::npos ? dot : dot - at);
    if (part.empty() || part.size() > 6 || parts.size() == max) return std::nullopt;
    std::uint32_t v = 0;
    for (char c : part) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + std::uint32_t(c - '0');
    }
    parts.push_back(v);
    if (dot == std::string_view::npos) break;
    at = dot + 1;
  }
  return parts;
}

std::array<std::uint8_t, 16> hashed_uuid(std::string_view text) {
  std::array<std::uint8_t, 16> out{};
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a, twice with different seeds
  std::uint64_t g = 1099511628211ull * 7;
  for (char c : text) {
    h = (h ^ std::uint8_t(c)) * 1099511628211ull;
    g = (g ^ std::uint8_t(c)) * 1099511628211ull;
  }
  for (int i = 0; i < 8; ++i) {
    out[i] = std::uint8_t(h >> (8 * i));
    out[8 + i] = std::uint8_t(g >> (8 * i));
  }
  return out;
}

bool is_software(const Entry& e) {
  return e.type == DeviceType::cpu || e.memory.kind == MemoryKind::host;
}

DeviceKind kind_of(const Entry& e, const VulkanPhysicalDevice* d) {
  if (d) {
    if (d->type == "PHYSICAL_DEVICE_TYPE_CPU") return DeviceKind::cpu;
    if (d->type == "PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU") return DeviceKind::integrated;
    if (d->type == "PHYSICAL_DEVICE_TYPE_DISCRETE_GPU") return DeviceKind::discrete;
    if (d->type == "PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU") return DeviceKind::virtual_gpu;
    if (d->type == "PHYSICAL_DEVICE_TYPE_OTHER") return DeviceKind::other;
  }
  if (is_software(e)) return DeviceKind::cpu;
  if (e.memory.kind == MemoryKind::unified) return DeviceKind::integrated;
  if (e.type == DeviceType::other) return DeviceKind::other;
  return DeviceKind::discrete;
}

// The same physical device's memory as another backend reports it.
const Entry* memory_twin(const Detection& detection, const Entry& e) {
  if (e.physical_id.empty()) return nullptr;
  for (const Entry& other : detection.entries)
    if (other.backend != "vulkan" && other.physical_id == e.physical_id && !other.partition &&
        other.memory.total_bytes && *other.memory.total_bytes > 0)
      return &other;
  return nullptr;
}

void lay_out_heaps(const Detection& detection, const Entry& e, std::optional<std::uint64_t> host,
                   Device& d) {
  const std::uint64_t host_bytes = host.value_or(kGiB);
  const std::string host_source =
      host ? "the host's memory (/proc/meminfo)" : "the host's memory is unknown: 1 GiB assumed";
  const Entry* twin = memory_twin(detection, e);
  if (d.kind == DeviceKind::cpu || d.kind == DeviceKind::integrated) {
    // Unified memory: one heap, the host's (the twin's where a runtime says how much).
    if (twin && twin->memory.kind == MemoryKind::unified) {
      d.heaps = {{*twin->memory.total_bytes, true}};
      d.memory_source = twin->backend + ":" + std::to_string(twin->index) + " (unified)";
    } else {
      d.heaps = {{host_bytes, true}};
      d.memory_source = host_source;
    }
    return;
  }
  std::uint64_t own = 0;
  if (twin) {
    own = *twin->memory.total_bytes;
    d.memory_source = twin->backend + ":" + std::to_string(twin->index);
  } else if (const plan::Sku* sku = plan::builtin_catalogue().match(e);
             sku && sku->memory_bytes >= 1 && sku->memory_bytes < 1e15) {
    own = static_cast<std::uint64_t>(sku->memory_bytes);
    d.memory_source = "the SKU catalogue (" + sku->id + ")";
  } else {
    own = kGiB;
    d.memory_source = "unknown: 1 GiB assumed";
  }
  d.heaps = {{own, true}, {host_bytes, false}};
}

}  // namespace

std::optional<std::uint32_t> parse_api_version(std::string_view text) {
  auto parts = dotted_numbers(trim(text), 3);
  if (!parts || parts->size() < 2) return std::nullopt;
  std::uint32_t major = (*parts)[0], minor = (*parts)[1],
                patch = parts->size() > 2 ? (*parts)[2] : 0;
  if (major > 0x7f || minor > 0x3ff || patch > 0xfff) return std::nullopt;
  return (major << 22) | (minor << 12) | patch;
}

std::optional<std::uint32_t> pack_driver_version(std::string_view text, bool nvidia) {
  auto parts = dotted_numbers(trim(text), 4);
  if (!parts || parts->size() < 2) return std::nullopt;
  auto p = *parts;
  p.resize(4, 0);
  if (nvidia) {
    if (p[0] > 0x3ff || p[1] > 0xff || p[2] > 0xff || p[3] > 0x3f) return std::nullopt;
    return (p[0] << 22) | (p[1] << 14) | (p[2] << 6) | p[3];
  }
  if (parts->size() > 3 || p[0] > 0x3ff || p[1] > 0x3ff || p[2] > 0xfff) return std::nullopt;
  return (p[0] << 22) | (p[1] << 12) | p[2];
}

std::uint32_t driver_id_of(std::string_view name) {
  if (name.rfind("DRIVER_ID_", 0) == 0) name.remove_prefix(10);
  for (std::size_t i = 0; i < std::size(kDriverIds); ++i)
    if (kDriverIds[i] == name) return std::uint32_t(i + 1);
  return 0;
}

Model make_model(const Detection& detection, const VulkanSummary* summary) {
  Model model;
  std::optional<std::uint64_t> host;
  for (const Entry& e : detection.entries)
    if (e.backend == "cpu" && e.memory.total_bytes && *e.memory.total_bytes > 0)
      host = e.memory.total_bytes;
  for (const Entry& e : detection.entries) {
    if (e.backend != "vulkan") continue;
    if (model.devices.size() == kMaxDevices) break;
    const VulkanPhysicalDevice* recorded = nullptr;
    if (summary)
      for (const auto& d : summary->devices)
        if (d.index == e.index) recorded = &d;
    Device d;
    d.name = recorded && !recorded->name.empty() ? recorded->name : e.name;
    if (d.name.size() > kMaxNameBytes) d.name.resize(kMaxNameBytes);
    d.kind = kind_of(e, recorded);
    d.vendor_id = recorded && recorded->vendor_id ? *recorded->vendor_id
                  : e.pci_vendor_id               ? *e.pci_vendor_id
                  : d.kind == DeviceKind::cpu     ? kVendorMesa
                                                  : 0;
    d.device_id =
        recorded && recorded->device_id ? *recorded->device_id : e.pci_device_id.value_or(0);
    std::optional<std::uint32_t> api;
    if (recorded) api = parse_api_version(recorded->api_version);
    if (!api && e.compute_class.rfind("vulkan-", 0) == 0)
      api = parse_api_version(std::string_view(e.compute_class).substr(7));
    d.api_version = api.value_or((1u << 22) | (3u << 12));
    if (recorded) {
      d.driver_id = driver_id_of(recorded->driver_id);
      const bool nvidia = d.driver_id == 4 || (d.driver_id == 0 && d.vendor_id == 0x10de);
      d.driver_version = pack_driver_version(recorded->driver_version, nvidia).value_or(0);
      d.driver_name = recorded->driver_name;
      d.driver_info = recorded->driver_info;
    } else if (d.kind == DeviceKind::cpu) {
      d.driver_id = kDriverIdLlvmpipe;
      d.driver_name = "llvmpipe";
    }
    // VkPhysicalDeviceDriverProperties holds 255 bytes each.
    if (d.driver_name.size() > kMaxNameBytes) d.driver_name.resize(kMaxNameBytes);
    if (d.driver_info.size() > kMaxNameBytes) d.driver_info.resize(kMaxNameBytes);
    if (recorded && recorded->device_uuid) {
      d.device_uuid = *recorded->device_uuid;
    } else if (auto uuid =
                   parse_vulkan_uuid(e.uuid.rfind("GPU-", 0) == 0 ? e.uuid.substr(4) : "")) {
      d.device_uuid = *uuid;
    } else {
      d.device_uuid =
          hashed_uuid("device " + std::to_string(e.index) + " " + d.name + " " + e.physical_id);
    }
    d.driver_uuid = hashed_uuid("driver " + d.driver_name + " " + d.driver_info);
    lay_out_heaps(detection, e, host, d);
    model.devices.push_back(std::move(d));
  }
  model.has_driver = !model.devices.empty();
  if (!model.has_driver) {
    model.why = "the snapshot lists no Vulkan device";
    for (const auto& b : detection.backends)
      if (b.name == "vulkan" && b.reason) model.why = b.reason->detail;
  }
  return model;
}

}  // namespace hwaccel::vulkan
