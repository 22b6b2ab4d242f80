#include "src/probe/amdgpu_kfd_topology.h"

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

// "name value" with one or more spaces or tabs between.
std::optional<std::pair<std::string_view, std::string_view>> split_property(std::string_view line) {
  line = trim(line);
  auto space = line.find_first_of(" \t");
  if (space == std::string_view::npos) return std::nullopt;
  return std::make_pair(line.substr(0, space), trim(line.substr(space)));
}

std::optional<std::uint32_t> as_u32(std::string_view value) {
  auto v = parse_u64(value);
  if (!v || *v > 0xffffffffu) return std::nullopt;
  return std::uint32_t(*v);
}

}  // namespace

KfdNodeProperties parse_kfd_node_properties(std::string_view text) {
  KfdNodeProperties p;
  for (auto line : split_lines(text)) {
    auto kv = split_property(line);
    if (!kv) continue;
    auto [name, value] = *kv;
    if (name == "cpu_cores_count")
      p.cpu_cores_count = parse_u64(value);
    else if (name == "simd_count")
      p.simd_count = parse_u64(value);
    else if (name == "gfx_target_version")
      p.gfx_target_version = as_u32(value);
    else if (name == "vendor_id")
      p.vendor_id = as_u32(value);
    else if (name == "device_id")
      p.device_id = as_u32(value);
    else if (name == "location_id")
      p.location_id = as_u32(value);
    else if (name == "domain")
      p.domain = as_u32(value);
    else if (name == "drm_render_minor")
      p.drm_render_minor = as_u32(value);
    else if (name == "num_xcc")
      p.num_xcc = as_u32(value);
  }
  return p;
}

std::optional<std::uint64_t> parse_kfd_mem_bank_size(std::string_view text) {
  for (auto line : split_lines(text)) {
    auto kv = split_property(line);
    if (kv && kv->first == "size_in_bytes") return parse_u64(kv->second);
  }
  return std::nullopt;
}

std::string gfx_target_name(std::uint32_t version) {
  const std::uint32_t major = version / 10000, minor = version / 100 % 100, step = version % 100;
  if (major == 0 || minor > 15 || step > 15) return "";
  constexpr char kHex[] = "0123456789abcdef";
  std::string name = "gfx" + std::to_string(major);
  name += kHex[minor];
  name += kHex[step];
  return name;
}

}  // namespace hwaccel
