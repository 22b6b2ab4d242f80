// The recorded monitoring figures the simulated libnvidia-ml answers from: a
// cell's NVML status from nvidia-smi's words, units cut, numbers read, the rows
// of a real H200's --query-gpu and -q by bus id, and hostile cells left out.
#include "nvml/nvml_fields.h"

#include <gtest/gtest.h>

#include "nvml/nvml_q_facts.h"
#include "tests/support/test_support.h"

namespace hwaccel::nvml {
namespace {

std::string h200(const char* command) {
  auto text = testing::slurp(
      testing::real_capture_path("nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt"));
  EXPECT_TRUE(text);
  return testing::capture_section(text.value_or(""), command).value_or("");
}

TEST(NvmlFields, NvidiaSmisWordsAreNvmlErrors) {
  Cells c = {{"a", "28"},
             {"b", "[N/A]"},
             {"c", "[Requested functionality has been deprecated]"},
             {"d", "Requested functionality has been deprecated"},
             {"e", "[Insufficient Permissions]"},
             {"f", "[Not Supported]"},
             {"g", "[GPU is lost]"},
             {"h", "N/A"}};
  EXPECT_EQ(field_of(c, "a").status, NVML_SUCCESS);
  EXPECT_EQ(field_of(c, "a").text, "28");
  EXPECT_EQ(field_of(c, "b").status, NVML_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(field_of(c, "c").status, NVML_ERROR_DEPRECATED);
  EXPECT_EQ(field_of(c, "d").status, NVML_ERROR_DEPRECATED);
  EXPECT_EQ(field_of(c, "e").status, NVML_ERROR_NO_PERMISSION);
  EXPECT_EQ(field_of(c, "f").status, NVML_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(field_of(c, "g").status, NVML_ERROR_GPU_IS_LOST);
  EXPECT_EQ(field_of(c, "h").status, NVML_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(field_of(c, "never recorded").status, NVML_ERROR_NOT_SUPPORTED);
}

TEST(NvmlFields, UnitsAreCutAndNumbersRead) {
  EXPECT_EQ(without_unit("81559 MiB"), "81559");
  EXPECT_EQ(without_unit("77.88 W"), "77.88");
  EXPECT_EQ(without_unit("16x"), "16");
  EXPECT_EQ(without_unit("3072 bank(s)"), "3072");
  EXPECT_EQ(without_unit("371 KB/s"), "371");
  EXPECT_EQ(without_unit("Pass-Through"), "Pass-Through");
  EXPECT_EQ(cell_milli("77.88"), 77880u);
  EXPECT_EQ(cell_milli("700.00"), 700000u);
  EXPECT_FALSE(cell_milli("-1"));
  EXPECT_FALSE(cell_milli("1e9"));
  EXPECT_EQ(cell_hex("0x00000000000001FF"), 0x1ffu);
  EXPECT_FALSE(cell_hex("0x"));
  EXPECT_EQ(cell_pstate("P8"), 8u);
  EXPECT_FALSE(cell_pstate("P99"));
  EXPECT_EQ(cell_flag("Enabled"), 1u);
  EXPECT_EQ(cell_flag("Not Active"), 0u);
  EXPECT_FALSE(cell_flag("Maybe"));
  EXPECT_FALSE(cell_uint("123456789012345678901234"));
}

TEST(NvmlFields, ARealH200QueryByBusId) {
  auto rows = query_cells(h200("nvidia-smi --query-gpu=timestamp"));
  ASSERT_EQ(rows.count("0000:83:00.0"), 1u);
  const Cells& c = rows["0000:83:00.0"];
  EXPECT_EQ(c.at("temperature.gpu"), "28");
  EXPECT_EQ(c.at("power.draw.instant"), "78.21");
  EXPECT_EQ(c.at("clocks.max.graphics"), "1980");
  EXPECT_EQ(c.at("pstate"), "P0");
  EXPECT_EQ(field_of(c, "fan.speed").status, NVML_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(field_of(c, "display_mode").status, NVML_ERROR_DEPRECATED);
}

TEST(NvmlFields, ARealH200QReport) {
  QReport r = parse_q_facts(h200("nvidia-smi -q"));
  const Cells& c = r.by_bus["0000:83:00.0"].cells;
  EXPECT_EQ(c.at("temperature.gpu"), "28");
  EXPECT_EQ(c.at("temperature.memory"), "32");
  EXPECT_EQ(c.at("power.draw.instant"), "77.88");
  EXPECT_EQ(c.at("power.min_limit"), "200.00");
  EXPECT_EQ(c.at("clocks.current.video"), "765");
  EXPECT_EQ(c.at("q.clocks.max.video"), "1545");
  EXPECT_EQ(c.at("pcie.link.width.max"), "16");
  EXPECT_EQ(c.at("pcie.link.gen.gpumax"), "5");
  EXPECT_EQ(c.at("q.pcie.rx"), "337");
  EXPECT_EQ(c.at("ecc.errors.corrected.aggregate.dram"), "0");
  EXPECT_EQ(c.at("remapped_rows.histogram.max"), "3072");
  EXPECT_EQ(c.at("q.board_part_number"), "695-2G520-0280-001");
  EXPECT_EQ(c.at("q.virtualization_mode"), "Pass-Through");
  EXPECT_EQ(c.at("inforom.ecc"), "7.16");
  EXPECT_EQ(c.at("q.fbc.sessions"), "0");
  EXPECT_EQ(c.at("retired_pages.single_bit_ecc.count"), "N/A");
  // The module's power readings are not the GPU's.
  EXPECT_EQ(c.count("module.power.draw.instant"), 0u);
}

TEST(NvmlFields, HostileQueriesAreLeftOut) {
  EXPECT_TRUE(query_cells("").empty());
  EXPECT_TRUE(query_cells("temperature.gpu\n28\n").empty());  // no bus id, no index
  auto rows = query_cells("index, temperature.gpu\n0, 30\nx, 31\n");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows["#0"].at("temperature.gpu"), "30");
  std::string long_cell(5000, '9');
  auto big = query_cells("index, temperature.gpu\n0, " + long_cell + "\n");
  EXPECT_EQ(big["#0"].count("temperature.gpu"), 0u);
}

}  // namespace
}  // namespace hwaccel::nvml
