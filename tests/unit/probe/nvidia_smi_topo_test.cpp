#include "src/probe/nvidia_smi_topo.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

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

// A real `topo -m` as people paste it, tabs turned to spaces: four V100-SXM2
// with NVLink (NV1/NV2), from an lmdeploy issue (fixtures/real/README.md).
TEST(NvidiaSmiTopo, RealCapturePastedWithSpaces) {
  const std::string file = "nvidia-smi-topo__4x-v100-sxm2__spaces__lmdeploy-issue-4408.txt";
  auto text = testing::slurp(testing::real_capture_path(file));
  if (!text) GTEST_FAIL() << "real capture not found: " << testing::real_capture_path(file);
  ASSERT_EQ(text->find('\t'), std::string::npos) << "the capture is the spaces-only paste";
  auto topo = parse_nvidia_smi_topo(*text);
  EXPECT_TRUE(topo.problems.empty()) << topo.problems.front();
  ASSERT_EQ(topo.gpus.size(), 4u);
  for (const auto& gpu : topo.gpus) {
    EXPECT_EQ(gpu.cpu_affinity, "20-39,60-79") << "GPU" << gpu.gpu;
    EXPECT_EQ(gpu.numa_node, 1) << "GPU" << gpu.gpu;
  }
  ASSERT_EQ(topo.links.size(), 6u);  // every pair of 4 GPUs, by NVLink
  const int lanes[4][4] = {{0, 2, 2, 1}, {2, 0, 1, 2}, {2, 1, 0, 1}, {1, 2, 1, 0}};
  for (const auto& link : topo.links) {
    EXPECT_EQ(link.kind, "nvlink") << link.a << "-" << link.b;
    EXPECT_EQ(link.lanes, lanes[link.a][link.b]) << link.a << "-" << link.b;
  }
}

// Spaces with NICs, an old driver's SOC, N/A affinity and a 7-letter cell
// followed by a single space (tab stops every 8 columns).
TEST(NvidiaSmiTopo, SpacesWithNicsAndShortGaps) {
  auto topo = parse_nvidia_smi_topo(
      "        GPU0    GPU1    GPU2    NIC0    CPU Affinity    NUMA Affinity   GPU NUMA ID\n"
      "GPU0     X      NV12    SOC     PXB     0-31,64-95      0               N/A\n"
      "GPU1    NV12     X      PIX     NODE    0,2,4,6 1               N/A\n"
      "GPU2    SOC     PIX      X      SYS     N/A     N/A             N/A\n"
      "NIC0    PXB     NODE    SYS      X\n"
      "\nLegend:\n\n  X    = Self\n\nNIC Legend:\n\n  NIC0: mlx5_0\n");
  EXPECT_TRUE(topo.problems.empty()) << topo.problems.front();
  ASSERT_EQ(topo.gpus.size(), 3u);
  EXPECT_EQ(topo.gpus[0].cpu_affinity, "0-31,64-95");
  EXPECT_EQ(topo.gpus[1].cpu_affinity, "0,2,4,6");
  EXPECT_EQ(topo.gpus[1].numa_node, 1);
  EXPECT_EQ(topo.gpus[2].cpu_affinity, "");
  EXPECT_FALSE(topo.gpus[2].numa_node);
  ASSERT_EQ(topo.links.size(), 3u);
  EXPECT_EQ(topo.links[0].lanes, 12);
  EXPECT_EQ(topo.links[1].path, "SOC");
  EXPECT_EQ(topo.links[2].path, "PIX");
}

}  // namespace
}  // namespace hwaccel
