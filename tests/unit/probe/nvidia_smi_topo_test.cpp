#include "src/probe/nvidia_smi_topo.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

// The shape of the real single-GPU captures: ANSI underline on the header, an
// empty cell before "GPU NUMA ID", then the legend.
constexpr std::string_view kOneGpu =
    "\t\x1b[4mGPU0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m\n"
    "GPU0\t X \t0-19\t0\t\tN/A\n"
    "\n"
    "Legend:\n\n  X    = Self\n  NV#  = Connection traversing a bonded set of # NVLinks\n";

TEST(NvidiaSmiTopo, OneGpuHasAffinityAndNoLinks) {
  auto topo = parse_nvidia_smi_topo(kOneGpu);
  EXPECT_TRUE(topo.problems.empty()) << topo.problems.front();
  ASSERT_EQ(topo.gpus.size(), 1u);
  EXPECT_EQ(topo.gpus[0].gpu, 0);
  EXPECT_EQ(topo.gpus[0].cpu_affinity, "0-19");
  EXPECT_EQ(topo.gpus[0].numa_node, 0);
  EXPECT_TRUE(topo.links.empty());
}

TEST(NvidiaSmiTopo, GpusNicsAndPaths) {
  auto topo = parse_nvidia_smi_topo(
      "\t\x1b[4mGPU0\tGPU1\tGPU2\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m\n"
      "GPU0\t X \tNV12\tSYS\tPXB\t0-63\t0\t\tN/A\n"
      "GPU1\tNV12\t X \tPIX\tNODE\t0-63\t0\t\tN/A\n"
      "GPU2\tSYS\tPIX\t X \tSYS\tN/A\tN/A\t\tN/A\n"
      "NIC0\tPXB\tNODE\tSYS\t X \t\t\t\t\n"
      "\nLegend:\n\n  SYS  = ...\n\nNIC Legend:\n\n  NIC0: mlx5_0\n");
  EXPECT_TRUE(topo.problems.empty()) << topo.problems.front();
  ASSERT_EQ(topo.gpus.size(), 3u);
  EXPECT_EQ(topo.gpus[2].cpu_affinity, "");
  EXPECT_FALSE(topo.gpus[2].numa_node);
  ASSERT_EQ(topo.links.size(), 3u);
  EXPECT_EQ(topo.links[0].a, 0);
  EXPECT_EQ(topo.links[0].b, 1);
  EXPECT_EQ(topo.links[0].kind, "nvlink");
  EXPECT_EQ(topo.links[0].lanes, 12);
  EXPECT_EQ(topo.links[1].kind, "pcie");
  EXPECT_EQ(topo.links[1].path, "SYS");
  EXPECT_EQ(topo.links[2].a, 1);
  EXPECT_EQ(topo.links[2].b, 2);
  EXPECT_EQ(topo.links[2].path, "PIX");
}

TEST(NvidiaSmiTopo, OldDriverWithoutGpuNumaColumn) {
  auto topo = parse_nvidia_smi_topo(
      "\tGPU0\tGPU1\tCPU Affinity\n"
      "GPU0\t X \tSOC\t0-11\n"
      "GPU1\tSOC\t X \t12-23\n");
  ASSERT_EQ(topo.gpus.size(), 2u);
  EXPECT_EQ(topo.gpus[1].cpu_affinity, "12-23");
  EXPECT_FALSE(topo.gpus[1].numa_node);
  ASSERT_EQ(topo.links.size(), 1u);
  EXPECT_EQ(topo.links[0].path, "SOC");
}

TEST(NvidiaSmiTopo, GarbageIsNotedNeverThrown) {
  auto topo = parse_nvidia_smi_topo("\tGPU0\tGPU1\nGPU0\t X \tWAT\nGPU1\n");
  EXPECT_TRUE(topo.links.empty());
  EXPECT_EQ(topo.problems.size(), 2u);
  EXPECT_TRUE(parse_nvidia_smi_topo("").gpus.empty());
  EXPECT_TRUE(parse_nvidia_smi_topo("No devices were found\n").gpus.empty());
  std::string noise;
  for (int i = 0; i < 2000; ++i) noise += char(i * 37 % 256);
  (void)parse_nvidia_smi_topo(noise);
}

}  // namespace
}  // namespace hwaccel
