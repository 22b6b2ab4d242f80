// nvidia-smi -q (text, -i, -d MEMORY) and -q -x (XML) from the host model.
#include <gtest/gtest.h>

#include "src/probe/nvidia_smi_q.h"
#include "tests/unit/sim/emulate/nvsmi_host.h"

namespace hwaccel::sim {
namespace {

using testing_nvsmi::Host;
using testing_nvsmi::lines;

TEST(NvidiaSmiQ, TheLogHasTheRealHeaderAndColonColumn) {
  Host h("dgx-h100");
  auto a = h.ask({"-q"});
  EXPECT_EQ(a.exit_code, 0);
  auto l = lines(a.out);
  EXPECT_EQ(l[1], "==============NVSMI LOG==============");
  for (const auto& line : l)
    if (line.find(" : ") != std::string::npos) {
      EXPECT_EQ(line.find(" : "), 54u) << line;
    }
  EXPECT_NE(a.out.find("Attached GPUs                                          : 8\n"),
            std::string::npos);
  EXPECT_NE(a.out.find("    GPU UUID                                           : "
                       "GPU-e42bc4bd-3aea-b47e-0f5e-41299882ef21\n"),
            std::string::npos);
}

TEST(NvidiaSmiQ, OneGpuAndOnlyItsMemory) {
  Host h("dgx-h100");
  auto a = h.ask({"-q", "-i", "1", "-d", "MEMORY"});
  EXPECT_NE(a.out.find("GPU 00000000:43:00.0\n    FB Memory Usage\n"), std::string::npos);
  EXPECT_NE(a.out.find("        Total                                          : 81559 MiB\n"),
            std::string::npos);
  EXPECT_NE(a.out.find("        Free                                           : 81007 MiB\n"),
            std::string::npos);
  EXPECT_EQ(a.out.find("00000000:1B:00.0"), std::string::npos);
  EXPECT_EQ(a.out.find("Product Name"), std::string::npos);
}

TEST(NvidiaSmiQ, MigDevicesCarryTheirInstanceIdsAndReadBackThroughTheProbe) {
  Host h("h100-mig");
  auto a = h.ask({"-q"});
  auto q = parse_nvidia_smi_q(a.out);
  ASSERT_EQ(q.gpus.size(), 1u);
  std::size_t migs = 0;
  for (const auto& e : h.detection.entries)
    if (e.backend == "cuda" && e.partition) ++migs;
  EXPECT_EQ(q.gpus[0].mig_devices.size(), migs);
}

TEST(NvidiaSmiQ, XmlNamesEveryGpuWithItsUuidAndMemory) {
  Host h("dgx-h100");
  auto a = h.ask({"-q", "-x"});
  EXPECT_EQ(a.out.rfind("<?xml version=\"1.0\" ?>\n", 0), 0u);
  EXPECT_NE(a.out.find("<attached_gpus>8</attached_gpus>"), std::string::npos);
  EXPECT_NE(a.out.find("<gpu id=\"00000000:DF:00.0\">"), std::string::npos);
  EXPECT_NE(a.out.find("<uuid>GPU-168fbe87-2a83-b2f1-9874-64cbffc91be1</uuid>"), std::string::npos);
  EXPECT_NE(a.out.find("<total>81559 MiB</total>"), std::string::npos);
  EXPECT_EQ(a.out.substr(a.out.size() - 18), "</nvidia_smi_log>\n");
}

TEST(NvidiaSmiQ, VersionNamesDriverNvmlAndCuda) {
  Host h("gx10");
  EXPECT_EQ(h.ask({"--version"}).out,
            "NVIDIA-SMI version  : 580.95.05\nNVML version        : 580.95\nDRIVER version      : "
            "580.95.05\nCUDA Version        : 13.0\n");
}

}  // namespace
}  // namespace hwaccel::sim
