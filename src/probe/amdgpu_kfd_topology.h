// The KFD (ROCm's kernel driver) topology: /sys/class/kfd/kfd/topology/nodes/N/properties,
// one "name value" line per property (kfd_topology.c, node_show()), e.g.
//   cpu_cores_count 0
//   simd_count 1216
//   gfx_target_version 90402
//   vendor_id 4098
//   device_id 29857
//   location_id 49920
//   domain 0
//   drm_render_minor 128
// A CPU node has simd_count 0. location_id is the kernel's pci_dev_id() of the GPU
// (bus << 8 | devfn); on a device split into compute partitions the partition's
// number is OR'ed into its low bits (kfd_topology_add_device()).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hwaccel {

struct KfdNodeProperties {
  std::optional<std::uint64_t> cpu_cores_count;
  std::optional<std::uint64_t> simd_count;
  std::optional<std::uint32_t> gfx_target_version;
  std::optional<std::uint32_t> vendor_id;
  std::optional<std::uint32_t> device_id;
  std::optional<std::uint32_t> location_id;
  std::optional<std::uint32_t> domain;
  std::optional<std::uint32_t> drm_render_minor;
  std::optional<std::uint32_t> num_xcc;
  bool is_gpu() const { return simd_count.value_or(0) > 0; }
};

// Unknown names are ignored; a value that is not a whole decimal number leaves its field empty.
KfdNodeProperties parse_kfd_node_properties(std::string_view text);

// A node's mem_banks/N/properties: "heap_type 1\nsize_in_bytes 206141652992\n..." -> the size.
std::optional<std::uint64_t> parse_kfd_mem_bank_size(std::string_view text);

// gfx_target_version (major * 10000 + minor * 100 + stepping, minor and stepping
// printed as hex digits) -> the LLVM target: 90402 -> "gfx942", 90010 -> "gfx90a",
// 110501 -> "gfx1151". "" for 0 (a CPU node) or a minor/stepping above 15.
std::string gfx_target_name(std::uint32_t gfx_target_version);

}  // namespace hwaccel
