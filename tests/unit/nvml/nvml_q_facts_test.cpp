// The reader of `nvidia-smi -q` the simulated libnvidia-ml takes per-GPU facts from:
// a real H200's -q, and lines it must leave out.
#include "nvml/nvml_q_facts.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace hwaccel::nvml {
namespace {

std::string q_section(const char* capture) {
  auto text = testing::slurp(testing::real_capture_path(std::string(capture)));
  EXPECT_TRUE(text) << capture;
  auto section = testing::capture_section(text.value_or(""), "nvidia-smi -q");
  return section.value_or("");
}

TEST(NvmlQFacts, ReadsARealH200) {
  QReport r = parse_q_facts(q_section("nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt"));
  EXPECT_EQ(r.cuda_version, "13.1");
  ASSERT_EQ(r.by_bus.count("0000:83:00.0"), 1u);
  const QFacts& q = r.by_bus["0000:83:00.0"];
  EXPECT_EQ(q.persistence, true);
  EXPECT_EQ(q.compute_mode, 0);
  EXPECT_EQ(q.addressing_mode, "None");
  EXPECT_EQ(q.bar1_total, 262144ull << 20);
  EXPECT_EQ(q.bar1_free, 262143ull << 20);
  EXPECT_EQ(q.temperature_c, 28u);
  EXPECT_EQ(q.power_mw, 77880u);  // the instantaneous draw, not the average
  EXPECT_EQ(q.power_limit_mw, 700000u);
  EXPECT_EQ(q.clock_sm_mhz, 345u);
  EXPECT_EQ(q.clock_memory_mhz, 3201u);
  EXPECT_EQ(q.utilization_gpu, 0u);
}

// The lines behind the health, fabric and capability calls (nvml_health_api.cpp,
// nvml_fabric_api.cpp), read under the --query-gpu names of the same values.
TEST(NvmlQFacts, ReadsHealthFabricAndCapabilityLines) {
  QReport r = parse_q_facts(q_section("nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt"));
  const Cells& c = r.by_bus["0000:83:00.0"].cells;
  EXPECT_EQ(c.at("q.pdi"), "0x737bb8d09327f7d9");
  EXPECT_EQ(c.at("temperature.gpu.tlimit"), "59");
  EXPECT_EQ(c.at("ecc.errors.uncorrected.aggregate.sram.parity"), "0");
  EXPECT_EQ(c.at("ecc.errors.uncorrected.volatile.sram.secded"), "0");
  EXPECT_EQ(c.at("ecc.errors.uncorrected.aggregate.sram.thresholdExceeded"), "No");
  EXPECT_EQ(c.at("ecc.errors.uncorrected.aggregate.sram.mcu"), "0");  // "SRAM Microcontroller"
  EXPECT_EQ(c.at("q.unrepairable_memory"), "No");
  EXPECT_EQ(c.at("fabric.state"), "Completed");
  EXPECT_EQ(c.at("fabric.status"), "Success");
  EXPECT_EQ(c.at("fabric.clusterUuid"), "00000000-0000-0000-0000-000000000000");
  EXPECT_EQ(c.at("fabric.health.route_unhealthy"), "N/A");
  EXPECT_EQ(c.at("q.vgpu_heterogeneous_mode"), "N/A");
  EXPECT_EQ(c.at("q.egm"), "disabled");
}

TEST(NvmlQFacts, ValuesItCannotReadAreLeftOut) {
  QReport r = parse_q_facts(
      "GPU 00000000:01:00.0\n"
      "    Persistence Mode : Maybe\n"
      "    Serial Number : N/A\n"
      "    Temperature\n"
      "        GPU Current Temp : N/A\n"
      "    GPU Power Readings\n"
      "        Instantaneous Power Draw : -5 W\n"
      "    Clocks\n"
      "        SM : 99999999999999999999 MHz\n"
      "GPU not-a-bus-id\n"
      "    Persistence Mode : Enabled\n");
  ASSERT_EQ(r.by_bus.size(), 1u);
  const QFacts& q = r.by_bus.begin()->second;
  EXPECT_FALSE(q.persistence);
  EXPECT_TRUE(q.serial.empty());
  EXPECT_FALSE(q.temperature_c);
  EXPECT_FALSE(q.power_mw);
  EXPECT_FALSE(q.clock_sm_mhz);
}

}  // namespace
}  // namespace hwaccel::nvml
