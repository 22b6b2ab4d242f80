// nvidia-smi's bare table, -L and topo -m from the host model, laid out as the
// real captures are (fixtures/real/nvidia-smi__*__590.48.01.txt).
#include <gtest/gtest.h>

#include "src/probe/nvidia_smi_list.h"
#include "src/probe/nvidia_smi_topo.h"
#include "tests/unit/sim/emulate/nvsmi_host.h"

namespace hwaccel::sim {
namespace {

using testing_nvsmi::Host;
using testing_nvsmi::lines;

TEST(NvidiaSmiTable, LinesHaveTheRealTablesWidthsAndRules) {
  auto capture = hwaccel::testing::slurp(
      hwaccel::testing::real_capture_path("nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt"));
  ASSERT_TRUE(capture);
  // The bare run's section: "# $ nvidia-smi " alone on its line, then the banner's end.
  auto at = capture->find("# $ nvidia-smi \n");
  ASSERT_NE(at, std::string::npos);
  at = capture->find("#\n", at) + 2;
  auto real = std::make_optional(capture->substr(at, capture->find("\n\n\n", at) - at));
  auto real_lines = lines(*real);
  Host h("dgx-h100");
  auto table = lines(h.ask({}).out);
  // Banner, rules and the column heads are the tool's own text.
  for (std::size_t i = 1; i < 8; ++i)
    if (i != 2) {
      EXPECT_EQ(table[i], real_lines[i]) << i;
    }
  // Every row is as wide as the real ones, and the header names driver and CUDA.
  for (std::size_t i = 1; i < table.size(); ++i)
    if (!table[i].empty()) {
      EXPECT_EQ(table[i].size(), real_lines[1].size()) << table[i];
    }
  EXPECT_EQ(
      table[2],
      "| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4  "
      "   |");
  EXPECT_EQ(table[0].size(), lines(*real)[0].size());
  EXPECT_NE(table[8].find("NVIDIA H100 80GB HBM3"), std::string::npos);
  EXPECT_NE(table[9].find("      0MiB /  81559MiB"), std::string::npos);
}

TEST(NvidiaSmiTable, ListReadsBackThroughTheProbesParserWithMigDevices) {
  Host h("h100-mig");
  auto a = h.ask({"--list-gpus"});
  EXPECT_EQ(a.exit_code, 0);
  auto list = parse_nvidia_smi_list(a.out);
  ASSERT_EQ(list.gpus.size(), 1u);
  std::size_t migs = 0;
  for (const auto& e : h.detection.entries)
    if (e.backend == "cuda" && e.partition) {
      ++migs;
      bool found = false;
      for (const auto& d : list.gpus[0].mig_devices) found = found || d.uuid == e.uuid;
      EXPECT_TRUE(found) << e.uuid;
    }
  EXPECT_EQ(list.gpus[0].mig_devices.size(), migs);
  EXPECT_EQ(migs, 4u);
  // The capture's spacing: "  MIG 3g.40gb     Device  0: (UUID: ...)".
  EXPECT_EQ(lines(a.out)[1].substr(0, 28), "  MIG 3g.40gb     Device  0:");
}

TEST(NvidiaSmiTable, ListOfOneGpuById) {
  Host h("dgx-h100");
  EXPECT_EQ(h.ask({"-i", "2", "-L"}).out,
            "GPU 2: NVIDIA H100 80GB HBM3 (UUID: GPU-bcde7d4e-3c75-1198-e575-422249826f39)\n");
}

TEST(NvidiaSmiTable, TopoFromTheModelReadsBackThroughTheProbesParser) {
  Host h("h100-mig");  // records no topo -m: the matrix is made from the model
  auto a = h.ask({"topo", "-m"});
  EXPECT_EQ(a.exit_code, 0);
  auto topo = parse_nvidia_smi_topo(a.out);
  ASSERT_EQ(topo.gpus.size(), 1u);
  EXPECT_TRUE(topo.problems.empty());
}

TEST(NvidiaSmiTable, TopoOnTheDgxIsTheRecordedMatrixUnderAnySpelling) {
  Host h("dgx-h100");
  auto a = h.ask({"topo", "--matrix"});
  EXPECT_NE(a.out.find("NV18"), std::string::npos);
  EXPECT_NE(a.out.find("NIC11: mlx5_11"), std::string::npos);
}

TEST(NvidiaSmiTable, UnknownOptionsAreRefused) {
  Host h("dgx-h100");
  auto a = h.ask({"--no-such-option"});
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_NE(a.out.find("Invalid combination of input arguments"), std::string::npos);
}

TEST(NvidiaSmiTable, ClockTextIsCtimeShaped) {
  EXPECT_EQ(nvsmi_clock_text("2026-07-03T22:10:45Z"), "Fri Jul  3 22:10:45 2026");
  EXPECT_EQ(nvsmi_timestamp("2026-07-14T09:00:27Z"), "2026/07/14 09:00:27.000");
  EXPECT_EQ(nvsmi_clock_text("yesterday"), "Thu Jan  1 00:00:00 1970");
}

}  // namespace
}  // namespace hwaccel::sim

namespace hwaccel::sim {
namespace {

TEST(NvidiaSmiNvlink, EachH100ShowsItsEighteenLinksAtNvlink4Rate) {
  testing_nvsmi::Host h("dgx-h100");
  auto a = h.ask({"nvlink", "--status"});
  EXPECT_EQ(a.exit_code, 0);
  auto l = testing_nvsmi::lines(a.out);
  ASSERT_EQ(l.size(), 8u * 19u);
  EXPECT_EQ(l[0].rfind("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-", 0), 0u);
  EXPECT_EQ(l[18], "\t Link 17: 26.562 GB/s");
}

TEST(NvidiaSmiNvlink, MigModeRefusesAsTheRealTool) {
  testing_nvsmi::Host h("h100-mig");
  EXPECT_NE(h.ask({"nvlink", "-s"})
                .out.find("Nvlink queries are not supported for Devices in MIG mode\n"),
            std::string::npos);
}

}  // namespace
}  // namespace hwaccel::sim

namespace hwaccel::sim {
namespace {

TEST(NvidiaSmiTable, MigDevicesBoxHasTheCapturesLayoutAndInstanceIds) {
  auto capture = hwaccel::testing::slurp(hwaccel::testing::real_capture_path(
      "nvidia-smi__linux-x86_64__nvidia-h100-mig__590.48.01.txt"));
  ASSERT_TRUE(capture);
  testing_nvsmi::Host h("h100-mig");
  auto out = h.ask({}).out;
  for (const char* fixed :
       {"| MIG devices:", "| GPU  GI  CI  MIG |              Shared Memory-Usage |",
        "|==================+==================================+===========+====="})
    EXPECT_NE(capture->find(fixed), std::string::npos) << fixed;
  auto at = out.find("| MIG devices:");
  ASSERT_NE(at, std::string::npos) << out;
  auto rows = testing_nvsmi::lines(out.substr(at));
  // The capture's first row: GPU 0, GI 2, CI 0, MIG device 0, 40448 MiB shared.
  EXPECT_EQ(rows[6].substr(0, 20), "|  0    2   0   0  |");
  EXPECT_NE(rows[6].find(" / 40448MiB    |"), std::string::npos) << rows[6];
  for (std::size_t i = 0; i < 6 + 4 * 3; ++i) EXPECT_EQ(rows[i].size(), 91u) << rows[i];
}

}  // namespace
}  // namespace hwaccel::sim
