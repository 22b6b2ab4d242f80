#include "sim/emulate/amd_gpus.h"

#include <cctype>
#include <charconv>
#include <cstdio>

#include "sim/emulate/emulate_common.h"

namespace hwaccel::sim::emulate {

namespace {

std::optional<long long> number_in(std::string_view text, int base) {
  if (base == 16 && (text.starts_with("0x") || text.starts_with("0X"))) text.remove_prefix(2);
  long long value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

// "location_id 1280\n" style KFD properties: the value of `key`, when it is a number.
std::optional<long long> property(std::string_view text, std::string_view key) {
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    if (line.size() > key.size() && line.starts_with(key) && line[key.size()] == ' ')
      return number_in(line.substr(key.size() + 1), 10);
    at = end + 1;
  }
  return std::nullopt;
}

// A sysfs counter in bytes ("4294967296\n"); nothing when absent or not a number.
std::optional<std::uint64_t> recorded_bytes(const Snapshot& snapshot, const std::string& path) {
  auto text = recorded_text(snapshot, path);
  if (!text) return std::nullopt;
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value, 10);
  if (ec != std::errc() || end != text->data() + text->size() || text->empty()) return std::nullopt;
  return value;
}

// The KFD node whose PCI location (bus << 8 | devfn, domain) is the GPU's.
std::optional<int> kfd_node_of(const Snapshot& snapshot, const std::string& bdf,
                               std::optional<int>& simds) {
  // bdf "DDDD:BB:DD.F"
  if (bdf.size() != 12) return std::nullopt;
  auto domain = number_in(std::string_view(bdf).substr(0, 4), 16);
  auto bus = number_in(std::string_view(bdf).substr(5, 2), 16);
  auto dev = number_in(std::string_view(bdf).substr(8, 2), 16);
  auto fn = number_in(std::string_view(bdf).substr(11, 1), 16);
  if (!domain || !bus || !dev || !fn) return std::nullopt;
  const long long location = (*bus << 8) | (*dev << 3) | *fn;
  const std::string prefix = "/sys/class/kfd/kfd/topology/nodes/";
  for (auto it = snapshot.files.lower_bound(prefix);
       it != snapshot.files.end() && it->first.starts_with(prefix); ++it) {
    if (!it->first.ends_with("/properties") || it->second.kind != FileEntry::Kind::content)
      continue;
    const std::string& props = it->second.bytes;
    if (property(props, "location_id") != location ||
        property(props, "domain").value_or(0) != *domain)
      continue;
    if (property(props, "simd_count").value_or(0) == 0) continue;
    auto node = number_in(std::string_view(it->first).substr(prefix.size()), 10);
    if (!node) continue;
    if (auto s = property(props, "simd_count")) simds = static_cast<int>(*s);
    return static_cast<int>(*node);
  }
  return std::nullopt;
}

}  // namespace

std::vector<AmdGpu> amd_gpus(const EmulatedHost& host) {
  std::vector<AmdGpu> out;
  for (const Entry* entry : devices_of(host.detection, "rocm")) {
    if (entry->status != EntryStatus::ready) continue;
    AmdGpu gpu;
    gpu.index = static_cast<int>(out.size());
    gpu.name = entry->name;
    gpu.bdf = entry->pci_bus_id;
    gpu.device_id = entry->pci_device_id.value_or(0);
    gpu.gfx = entry->compute_class;
    gpu.unified = entry->memory.kind == MemoryKind::unified;
    gpu.pool_bytes = entry->memory.total_bytes;
    gpu.numa_node = entry->numa_node;
    const std::string dir = "/sys/bus/pci/devices/" + gpu.bdf + "/";
    // The tools read amdgpu's own counters. Only a discrete GPU's detected
    // memory is its VRAM; an APU's is GTT (system memory), never VRAM.
    gpu.vram_total = recorded_bytes(host.snapshot, dir + "mem_info_vram_total");
    gpu.vram_used = recorded_bytes(host.snapshot, dir + "mem_info_vram_used");
    if (!gpu.vram_total && !gpu.unified) {
      gpu.vram_total = entry->memory.total_bytes;
      if (entry->memory.total_bytes && entry->memory.free_bytes &&
          *entry->memory.free_bytes <= *entry->memory.total_bytes)
        gpu.vram_used = *entry->memory.total_bytes - *entry->memory.free_bytes;
    }
    gpu.vis_vram_total = recorded_bytes(host.snapshot, dir + "mem_info_vis_vram_total");
    gpu.vis_vram_used = recorded_bytes(host.snapshot, dir + "mem_info_vis_vram_used");
    gpu.gtt_total = recorded_bytes(host.snapshot, dir + "mem_info_gtt_total");
    gpu.gtt_used = recorded_bytes(host.snapshot, dir + "mem_info_gtt_used");
    if (auto rev = recorded_text(host.snapshot, dir + "revision"))
      if (auto v = number_in(*rev, 16)) gpu.revision = static_cast<std::uint8_t>(*v);
    if (auto name = recorded_text(host.snapshot, dir + "product_name"); name && !name->empty())
      gpu.name = *name;
    gpu.unique_id = recorded_text(host.snapshot, dir + "unique_id").value_or("");
    if (!gpu.unique_id.empty() && !gpu.unique_id.starts_with("0x"))
      gpu.unique_id = "0x" + gpu.unique_id;
    gpu.serial = recorded_text(host.snapshot, dir + "serial_number").value_or("");
    gpu.vbios = recorded_text(host.snapshot, dir + "vbios_version").value_or("");
    gpu.memory_partition =
        recorded_text(host.snapshot, dir + "current_memory_partition").value_or("");
    gpu.compute_partition =
        recorded_text(host.snapshot, dir + "current_compute_partition").value_or("");
    gpu.kfd_node = kfd_node_of(host.snapshot, gpu.bdf, gpu.simd_count);
    out.push_back(std::move(gpu));
  }
  return out;
}

bool amdgpu_missing(const EmulatedHost& host) {
  if (driver_missing(host.detection, "rocm")) return true;
  for (const Entry* entry : devices_of(host.detection, "rocm"))
    if (entry->status == EntryStatus::ready) return false;
  return false;
}

std::string amdgpu_version(const EmulatedHost& host) {
  if (auto v = recorded_text(host.snapshot, "/sys/module/amdgpu/version"); v && !v->empty())
    return *v;
  return host.snapshot.facts.kernel;
}

std::string amd_smi_uuid(const AmdGpu& gpu) {
  std::string serial;
  for (char c : gpu.serial.starts_with("0x") || gpu.serial.starts_with("0X") ? gpu.serial.substr(2)
                                                                             : gpu.serial)
    if (std::isxdigit(static_cast<unsigned char>(c)))
      serial += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (serial.size() != 16) return "N/A";
  char id[5];
  std::snprintf(id, sizeof id, "%04x", gpu.device_id);
  return serial.substr(0, 2) + "ff" + id + "-0000-1000-80" + serial.substr(2, 2) + "-" +
         serial.substr(4);
}

}  // namespace hwaccel::sim::emulate
