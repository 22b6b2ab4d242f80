#include "sim/kfd_properties.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace hwaccel::sim {
namespace {

TEST(KfdProperties, TheKernelsLinesInItsOrder) {
  const std::string cpu =
      kfd_properties_text({{"cpu_cores_count", 32}, {"io_links_count", 1}}, false);
  EXPECT_EQ(cpu.rfind("cpu_cores_count 32\nsimd_count 0\nmem_banks_count 0\ncaches_count 0\n"
                      "io_links_count 1\np2p_links_count 0\n",
                      0),
            0u);
  // A CPU node ends with the queues and the CPU's clock; a GPU node has its own
  // lines between them (node_show()).
  EXPECT_NE(cpu.find("num_cp_queues 0\nmax_engine_clk_ccompute 0\n"), std::string::npos);
  EXPECT_EQ(cpu.find("num_xcc"), std::string::npos);
  const std::string gpu = kfd_properties_text({{"num_xcc", 8}, {"hive_id", 7}}, true);
  EXPECT_NE(gpu.find("num_cp_queues 0\nmax_engine_clk_fcompute 0\nlocal_mem_size 0\n"),
            std::string::npos);
  EXPECT_NE(gpu.find("unique_id 0\nnum_xcc 8\nmax_engine_clk_ccompute 0\n"), std::string::npos);
  EXPECT_NE(gpu.find("\nhive_id 7\n"), std::string::npos);
  // What ROCm's library refuses a node without.
  for (const char* key :
       {"hive_id ", "array_count ", "simd_arrays_per_engine ", "cu_per_simd_array "})
    EXPECT_NE(gpu.find(key), std::string::npos) << key;
}

TEST(KfdProperties, ParsingGivesBackWhatWasWrittenAndSkipsNonsense) {
  auto p = parse_kfd_properties("simd_count 1216\nhive_id 11638818706288400384\nbad\nx y\n");
  EXPECT_EQ(p.at("simd_count"), 1216u);
  EXPECT_EQ(p.at("hive_id"), 11638818706288400384ull);
  EXPECT_EQ(p.count("bad"), 0u);
  EXPECT_EQ(p.count("x"), 0u);
  auto shape = kfd_gpu_shape(90402);
  shape["gfx_target_version"] = 90402;
  EXPECT_EQ(parse_kfd_properties(kfd_properties_text(shape, true)).at("array_count"), 32u);
  EXPECT_TRUE(kfd_gpu_shape(123).empty());
}

TEST(KfdProperties, TheKernelsHashes) {
  // CRC-16/ARC's check value (the CRC catalogue): lib/crc16.c is that CRC.
  const std::string check = "123456789";
  EXPECT_EQ(linux_crc16(0, reinterpret_cast<const std::uint8_t*>(check.data()), check.size()),
            0xBB3D);
  EXPECT_EQ(linux_hash_32(1, 16), 0x61C8u);  // GOLDEN_RATIO_32's top 16 bits
  EXPECT_EQ(linux_hash_32(0, 16), 0u);
}

TEST(KfdProperties, AGpuIdFollowsItsInputsAndTheKernelsFormula) {
  KfdGpuIdInputs a;
  a.devfn = 0, a.subsystem = 0x74a1 << 16 | 0x1002, a.bus = 0x05, a.device = 0x74a1;
  a.local_mem = 205822885888ull, a.xcc = 8 << 16, a.with_xcc = true, a.crc = true;
  std::set<std::uint32_t> ids;
  for (std::uint32_t bus : {0x05u, 0x26u, 0x46u, 0x65u, 0x85u, 0xa6u, 0xc6u, 0xe5u}) {
    KfdGpuIdInputs b = a;
    b.bus = bus;
    const auto id = kfd_gpu_id_hash(b);
    EXPECT_LE(id, 0xffffu);
    ids.insert(id);
  }
  EXPECT_EQ(ids.size(), 8u) << "eight GPUs, eight ids";
  KfdGpuIdInputs old = a;
  old.crc = false;
  EXPECT_NE(kfd_gpu_id_hash(old), kfd_gpu_id_hash(a)) << "6.10 changed the formula";
  KfdGpuIdInputs seven = old;
  seven.with_xcc = false;
  EXPECT_EQ(kfd_gpu_id_hash(seven) ^ linux_hash_32(a.xcc, 16), kfd_gpu_id_hash(old));
  KfdGpuIdInputs more_memory = a;
  more_memory.local_mem += 1ull << 32;
  EXPECT_NE(kfd_gpu_id_hash(more_memory), kfd_gpu_id_hash(a));
}

}  // namespace
}  // namespace hwaccel::sim
