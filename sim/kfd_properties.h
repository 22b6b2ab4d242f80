// amdkfd's node properties file (drivers/gpu/drm/amd/amdkfd/kfd_topology.c,
// node_show()): "name value" lines in the kernel's order, and the compute shape
// a GFX target reports there. For synthesised hosts and the KFD fill; ROCm's
// library reads hive_id, array_count, simd_arrays_per_engine and
// cu_per_simd_array and refuses a node without them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace hwaccel::sim {

using KfdProperties = std::map<std::string, std::uint64_t>;

// Every line node_show() prints for a CPU node (`gpu` false) or a GPU node, in
// its order, each value from `values` (0 when absent).
std::string kfd_properties_text(const KfdProperties& values, bool gpu);

// The "name value" lines of a properties file; a line that is not one is skipped.
KfdProperties parse_kfd_properties(const std::string& text);

// What kfd reports for a GFX target's compute units and engines (waves per
// SIMD, LDS, wave size, shader arrays, SDMA engines and queues, CP queues, peak
// clock); empty for a target not listed. The arrays follow the CU count of the
// parts the fixtures model (see the comment at each entry).
KfdProperties kfd_gpu_shape(std::uint32_t gfx_target_version);

// lib/crc16.c: CRC-16 with the polynomial 0x8005, bit-reversed (CRC-16/ARC).
std::uint16_t linux_crc16(std::uint16_t crc, const std::uint8_t* data, std::size_t n);
// include/linux/hash.h: hash_32(val, bits), the multiplicative hash with GOLDEN_RATIO_32.
std::uint32_t linux_hash_32(std::uint32_t value, int bits);

// What kfd_generate_gpu_id() hashes (kfd_topology.c): the PCI function, its
// subsystem ids, domain, device id and bus, the VRAM size, the XCC word.
struct KfdGpuIdInputs {
  std::uint32_t devfn = 0, subsystem = 0, domain = 0, device = 0, bus = 0, xcc = 0;
  std::uint64_t local_mem = 0;
  bool with_xcc = false;  // the XCC word (GFX 9.4.3 support, kernel 6.5 on)
  bool crc = false;       // crc16 of the eight words (kernel 6.10 on), else XOR of hash_32
};
// The 16-bit hash before the kernel's uniqueness step (0 or a taken id: +1).
std::uint32_t kfd_gpu_id_hash(const KfdGpuIdInputs& in);

}  // namespace hwaccel::sim
