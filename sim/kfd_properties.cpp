#include "sim/kfd_properties.h"

#include <charconv>
#include <initializer_list>

namespace hwaccel::sim {
namespace {

// node_show() up to num_cp_queues (every node), then the GPU-only lines, then
// max_engine_clk_ccompute (every node, last).
constexpr std::initializer_list<const char*> kCommon = {"cpu_cores_count",
                                                        "simd_count",
                                                        "mem_banks_count",
                                                        "caches_count",
                                                        "io_links_count",
                                                        "p2p_links_count",
                                                        "cpu_core_id_base",
                                                        "simd_id_base",
                                                        "max_waves_per_simd",
                                                        "lds_size_in_kb",
                                                        "gds_size_in_kb",
                                                        "num_gws",
                                                        "wave_front_size",
                                                        "array_count",
                                                        "simd_arrays_per_engine",
                                                        "cu_per_simd_array",
                                                        "simd_per_cu",
                                                        "max_slots_scratch_cu",
                                                        "gfx_target_version",
                                                        "vendor_id",
                                                        "device_id",
                                                        "location_id",
                                                        "domain",
                                                        "drm_render_minor",
                                                        "hive_id",
                                                        "num_sdma_engines",
                                                        "num_sdma_xgmi_engines",
                                                        "num_sdma_queues_per_engine",
                                                        "num_cp_queues"};
constexpr std::initializer_list<const char*> kGpuOnly = {
    "max_engine_clk_fcompute", "local_mem_size", "fw_version", "capability", "debug_prop",
    "sdma_fw_version",         "unique_id",      "num_xcc"};

}  // namespace

std::string kfd_properties_text(const KfdProperties& values, bool gpu) {
  std::string out;
  auto line = [&](const char* key) {
    auto it = values.find(key);
    out += key;
    out += ' ';
    out += std::to_string(it == values.end() ? 0 : it->second);
    out += '\n';
  };
  for (const char* key : kCommon) line(key);
  if (gpu)
    for (const char* key : kGpuOnly) line(key);
  line("max_engine_clk_ccompute");
  return out;
}

KfdProperties parse_kfd_properties(const std::string& text) {
  KfdProperties p;
  std::size_t at = 0;
  while (at < text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + at, end - at);
    at = end + 1;
    auto space = line.find(' ');
    if (space == std::string_view::npos) continue;
    std::uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(line.data() + space + 1, line.data() + line.size(), v);
    if (ec == std::errc() && ptr == line.data() + line.size())
      p[std::string(line.substr(0, space))] = v;
  }
  return p;
}

KfdProperties kfd_gpu_shape(std::uint32_t gfx) {
  // Common to RDNA: wave32, 16 waves and 2 SIMDs per CU, 64 KiB LDS.
  auto rdna = [](std::uint64_t arrays, std::uint64_t per_engine, std::uint64_t cus,
                 std::uint64_t sdma, std::uint64_t queues, std::uint64_t clock) {
    return KfdProperties{{"max_waves_per_simd", 16},
                         {"lds_size_in_kb", 64},
                         {"num_gws", 64},
                         {"wave_front_size", 32},
                         {"array_count", arrays},
                         {"simd_arrays_per_engine", per_engine},
                         {"cu_per_simd_array", cus},
                         {"simd_per_cu", 2},
                         {"max_slots_scratch_cu", 32},
                         {"num_sdma_engines", sdma},
                         {"num_sdma_queues_per_engine", queues},
                         {"num_cp_queues", 8},
                         {"max_engine_clk_fcompute", clock}};
  };
  switch (gfx) {
    case 90402:  // MI300X (gfx942): 8 XCDs, 32 arrays of 10 CUs (304 enabled), wave64.
      return {{"max_waves_per_simd", 8},
              {"lds_size_in_kb", 64},
              {"num_gws", 64},
              {"wave_front_size", 64},
              {"array_count", 32},
              {"simd_arrays_per_engine", 1},
              {"cu_per_simd_array", 10},
              {"simd_per_cu", 4},
              {"max_slots_scratch_cu", 32},
              {"num_sdma_engines", 2},
              {"num_sdma_xgmi_engines", 14},
              {"num_sdma_queues_per_engine", 8},
              {"num_cp_queues", 24},
              {"max_engine_clk_fcompute", 2100}};
    case 110000:  // Navi 31 (W7900, RX 7900 XTX): 12 arrays of 8 CUs.
      return rdna(12, 2, 8, 2, 6, 2482);
    case 110500:  // Strix Point (gfx1150): 16 CUs, 2 arrays of 8.
      return rdna(2, 2, 8, 1, 6, 2900);
    case 110501:  // Strix Halo (gfx1151): 40 CUs, 4 arrays of 10.
      return rdna(4, 2, 10, 1, 6, 2900);
    case 100306:  // Raphael (gfx1036): 2 CUs in one array.
      return rdna(1, 1, 2, 1, 8, 2200);
    default:
      return {};
  }
}

std::uint16_t linux_crc16(std::uint16_t crc, const std::uint8_t* data, std::size_t n) {
  while (n--) {
    crc ^= *data++;
    for (int bit = 0; bit < 8; ++bit)
      crc = static_cast<std::uint16_t>((crc & 1) ? (crc >> 1) ^ 0xA001 : crc >> 1);
  }
  return crc;
}

std::uint32_t linux_hash_32(std::uint32_t value, int bits) {
  return (value * 0x61C88647u) >> (32 - bits);
}

std::uint32_t kfd_gpu_id_hash(const KfdGpuIdInputs& in) {
  const std::uint32_t words[8] = {in.devfn,
                                  in.subsystem,
                                  in.domain,
                                  in.device,
                                  in.bus,
                                  static_cast<std::uint32_t>(in.local_mem),
                                  static_cast<std::uint32_t>(in.local_mem >> 32),
                                  in.xcc};
  if (in.crc) {
    // The words as the kernel's buffer holds them: little-endian bytes.
    std::uint8_t bytes[sizeof words];
    for (int i = 0; i < 8; ++i)
      for (int b = 0; b < 4; ++b) bytes[i * 4 + b] = static_cast<std::uint8_t>(words[i] >> (8 * b));
    return linux_crc16(0, bytes, sizeof bytes);
  }
  std::uint32_t h = 0;
  for (int i = 0; i < (in.with_xcc ? 8 : 7); ++i) h ^= linux_hash_32(words[i], 16);
  return h;
}

}  // namespace hwaccel::sim
