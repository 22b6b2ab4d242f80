#include "src/probe/amdgpu_kfd_topology.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

TEST(AmdgpuKfdTopology, ReadsAGpuNode) {
  // An MI300X node in SPX mode, in the order kfd_topology.c prints its properties.
  auto p = parse_kfd_node_properties(
      "cpu_cores_count 0\nsimd_count 1216\nmem_banks_count 1\ncaches_count 626\n"
      "io_links_count 8\np2p_links_count 7\ncpu_core_id_base 0\nsimd_id_base 2147487744\n"
      "max_waves_per_simd 8\nlds_size_in_kb 64\ngds_size_in_kb 0\nnum_gws 64\n"
      "wave_front_size 64\narray_count 32\nsimd_arrays_per_engine 1\ncu_per_simd_array 10\n"
      "simd_per_cu 4\nmax_slots_scratch_cu 32\ngfx_target_version 90402\nvendor_id 4098\n"
      "device_id 29857\nlocation_id 3072\ndomain 0\ndrm_render_minor 128\n"
      "hive_id 9238713287238462222\nnum_sdma_engines 2\nnum_sdma_xgmi_engines 14\n"
      "num_xcc 8\n");
  EXPECT_TRUE(p.is_gpu());
  EXPECT_EQ(p.simd_count, 1216u);
  EXPECT_EQ(p.gfx_target_version, 90402u);
  EXPECT_EQ(p.vendor_id, 0x1002u);
  EXPECT_EQ(p.device_id, 0x74a1u);
  EXPECT_EQ(p.location_id, 0x0c00u);
  EXPECT_EQ(p.domain, 0u);
  EXPECT_EQ(p.drm_render_minor, 128u);
  EXPECT_EQ(p.num_xcc, 8u);
}

TEST(AmdgpuKfdTopology, CpuNodesHaveNoSimds) {
  auto cpu = parse_kfd_node_properties(
      "cpu_cores_count 96\nsimd_count 0\nmem_banks_count 1\ngfx_target_version 0\n"
      "vendor_id 0\ndevice_id 0\nlocation_id 0\ndomain 0\ndrm_render_minor 0\n");
  EXPECT_FALSE(cpu.is_gpu());
  EXPECT_EQ(cpu.cpu_cores_count, 96u);
  EXPECT_FALSE(parse_kfd_node_properties("").is_gpu());
}

TEST(AmdgpuKfdTopology, GarbageLeavesFieldsEmpty) {
  auto p = parse_kfd_node_properties(
      "simd_count lots\ngfx_target_version -1\nlocation_id 99999999999\ndomain\n\t\n"
      "\x01\x02\x03 4\ndrm_render_minor\t129\r\n");
  EXPECT_FALSE(p.simd_count);
  EXPECT_FALSE(p.gfx_target_version);
  EXPECT_FALSE(p.location_id);
  EXPECT_FALSE(p.domain);
  EXPECT_EQ(p.drm_render_minor, 129u);
}

TEST(AmdgpuKfdTopology, MemBankSize) {
  EXPECT_EQ(parse_kfd_mem_bank_size("heap_type 1\nsize_in_bytes 25727205376\nflags 0\n"
                                    "width 8192\nmem_clk_max 1300\n"),
            25727205376u);
  EXPECT_FALSE(parse_kfd_mem_bank_size("heap_type 1\n"));
}

TEST(AmdgpuKfdTopology, GfxTargetNames) {
  EXPECT_EQ(gfx_target_name(90402), "gfx942");  // MI300X, MI325X
  EXPECT_EQ(gfx_target_name(90010), "gfx90a");  // MI250X: the stepping is a hex digit
  EXPECT_EQ(gfx_target_name(90400), "gfx940");
  EXPECT_EQ(gfx_target_name(110501), "gfx1151");  // Strix Halo
  EXPECT_EQ(gfx_target_name(110003), "gfx1103");  // Phoenix (Radeon 780M)
  EXPECT_EQ(gfx_target_name(100306), "gfx1036");  // Raphael
  EXPECT_EQ(gfx_target_name(90000), "gfx900");    // Vega 10
  EXPECT_EQ(gfx_target_name(0), "");              // a CPU node
  EXPECT_EQ(gfx_target_name(91600), "");          // minor 16 has no hex digit
}

}  // namespace
}  // namespace hwaccel
