#include "src/probe/qaic_util.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

constexpr std::uint64_t kMiB = 1ull << 20;

// The first block of a real 8-card qaic-util -q (SDK 1.5, krai/ck-qaic), cut.
constexpr const char* kAi100 =
    "LRT QC_IMAGE_VERSION: LRT.AIC.5.2.1.5.6\n"
    "LRT IMAGE_VARIANT: LRT.AIC.REL\n"
    "Number of devices: 8\n"
    "QID 0\n"
    "        Status:Ready\n"
    "        PCI Address:0000:01:00.0\n"
    "        PCI Info:Processing accelerators Qualcomm Device a100\n"
    "        HW Version:0.2.0.0\n"
    "        FW Version:1.5.6\n"
    "        Dram Total:32692 MB\n"
    "        Dram Free:32692 MB\n"
    "        Dram Fragmentation:0.00%\n"
    "        Vc Total:16\n"
    "        Nsp Total:16\n"
    "        Nsp Free:16\n"
    "        NSP Frequency(Mhz):825\n"
    "        NSP Defective PG Mask: 0x0\n"
    "        Board serial:PN471-12-343016\n"
    "QID 1\n"
    "        Status:Error\n"
    "        PCI Address:0000:81:00.0\n";

TEST(QaicUtil, ReadsARealBlock) {
  auto out = parse_qaic_util(kAi100);
  ASSERT_EQ(out.devices.size(), 2u);
  const auto& d = out.devices[0];
  EXPECT_EQ(d.qid, 0);
  EXPECT_EQ(d.status, "Ready");
  EXPECT_EQ(d.pci_address, "0000:01:00.0");
  EXPECT_EQ(d.dram_total_bytes, 32692 * kMiB);
  EXPECT_EQ(d.dram_free_bytes, 32692 * kMiB);
  EXPECT_EQ(d.nsp_total, 16);
  EXPECT_EQ(d.nsp_free, 16);
  EXPECT_EQ(d.fw_version, "1.5.6");
  EXPECT_TRUE(out.problems.empty());
}

TEST(QaicUtil, ATruncatedBlockKeepsWhatItHas) {
  auto out = parse_qaic_util(kAi100);
  const auto& d = out.devices[1];
  EXPECT_EQ(d.status, "Error");
  EXPECT_FALSE(d.dram_total_bytes);
  EXPECT_FALSE(d.nsp_total);
}

TEST(QaicUtil, BadValuesAreProblems) {
  auto out = parse_qaic_util("QID 0\n\tDram Total:lots\n\tNsp Total:N/A\nQID x\n\tStatus:Ready\n");
  ASSERT_EQ(out.devices.size(), 1u);
  EXPECT_FALSE(out.devices[0].dram_total_bytes);
  EXPECT_FALSE(out.devices[0].nsp_total);
  EXPECT_EQ(out.problems.size(), 3u);
  EXPECT_EQ(out.devices[0].status, "");  // the Status after the bad QID belongs to no device
}

TEST(QaicUtil, Sizes) {
  EXPECT_EQ(parse_qaic_size("8116 MB"), 8116 * kMiB);
  EXPECT_EQ(parse_qaic_size("16 GB"), 16ull << 30);
  EXPECT_EQ(parse_qaic_size("33554432 KB"), 32ull << 30);
  EXPECT_FALSE(parse_qaic_size("MB"));
  EXPECT_FALSE(parse_qaic_size("12 parsecs"));
  EXPECT_FALSE(parse_qaic_size("99999999999999999999 GB"));
}

TEST(QaicUtil, NothingUseful) {
  EXPECT_TRUE(parse_qaic_util("").devices.empty());
  EXPECT_TRUE(parse_qaic_util("Number of devices: 0\n").devices.empty());
}

}  // namespace
}  // namespace hwaccel
