#include "src/probe/xpu_smi_discovery.h"

#include <gtest/gtest.h>

#include "src/catalog/intel_gpu_ids.h"
#include "src/catalog/npu_pci_ids.h"

namespace hwaccel {
namespace {

// xpu-smi 1.2 on a Max 1550 host, two of its devices (format of the tables in
// intel/xpumanager issues and sglang PR #38873).
constexpr const char* kDiscovery =
    "+-----------+---------------------------------------------------------------------------------"
    "-----+\n"
    "| Device ID | Device Information                                                              "
    "     |\n"
    "+-----------+---------------------------------------------------------------------------------"
    "-----+\n"
    "| 0         | Device Name: Intel(R) Data Center GPU Max 1550                                  "
    "     |\n"
    "|           | Vendor Name: Intel(R) Corporation                                               "
    "     |\n"
    "|           | SOC UUID: 00000000-0000-0029-0000-002f0bd58086                                  "
    "     |\n"
    "|           | PCI BDF Address: 0000:29:00.0                                                   "
    "     |\n"
    "|           | DRM Device: /dev/dri/card1                                                      "
    "     |\n"
    "|           | Function Type: physical                                                         "
    "     |\n"
    "+-----------+---------------------------------------------------------------------------------"
    "-----+\n"
    "| 1         | Device Name: Intel(R) Data Center GPU Max 1550                                  "
    "     |\n"
    "|           | Vendor Name: Intel(R) Corporation                                               "
    "     |\n"
    "|           | SOC UUID: 00000000-0000-003A-0000-002f0bd58086                                  "
    "     |\n"
    "|           | PCI BDF Address: 0000:3A:00.0                                                   "
    "     |\n"
    "|           | DRM Device: /dev/dri/card2                                                      "
    "     |\n"
    "|           | Function Type: physical                                                         "
    "     |\n"
    "+-----------+---------------------------------------------------------------------------------"
    "-----+\n";

TEST(XpuSmiDiscovery, ReadsEachDevice) {
  auto d = parse_xpu_smi_discovery(kDiscovery);
  EXPECT_TRUE(d.problems.empty());
  ASSERT_EQ(d.devices.size(), 2u);
  EXPECT_EQ(d.devices[0].name, "Intel(R) Data Center GPU Max 1550");
  EXPECT_EQ(d.devices[0].pci_address, "0000:29:00.0");
  EXPECT_EQ(d.devices[1].pci_address, "0000:3a:00.0");  // upper-case hex normalised
  EXPECT_EQ(d.devices[1].drm_device, "/dev/dri/card2");
  EXPECT_EQ(d.devices[1].function_type, "physical");
  EXPECT_EQ(without_trademarks(d.devices[0].name), "Intel Data Center GPU Max 1550");
  EXPECT_EQ(without_trademarks("Intel(R) Arc(TM) Pro B60 Graphics"), "Intel Arc Pro B60 Graphics");
}

TEST(XpuSmiDiscovery, UglyInput) {
  EXPECT_TRUE(parse_xpu_smi_discovery("").devices.empty());
  auto d = parse_xpu_smi_discovery(
      "No device discovered\n| x | Device Name: y |\n|   | PCI BDF Address: 0000:zz |\n"
      "| 3 | PCI BDF Address: nonsense |\n|\n");
  ASSERT_EQ(d.devices.size(), 1u);
  EXPECT_EQ(d.devices[0].id, 3);
  EXPECT_EQ(d.problems.size(), 2u);
}

TEST(NpuPciIds, Generations) {
  EXPECT_EQ(find_intel_npu(0x7d1d)->generation, "NPU 3720");
  EXPECT_EQ(find_intel_npu(0xad1d)->generation, "NPU 3720");
  EXPECT_EQ(find_intel_npu(0x643e)->generation, "NPU 4000");
  EXPECT_FALSE(find_intel_npu(0x7d55));
  EXPECT_EQ(find_amd_npu(0x1502, 0)->compute_class, "xdna-npu1");
  EXPECT_EQ(find_amd_npu(0x17f0, 0x10)->compute_class, "xdna2-npu4");
  EXPECT_EQ(find_amd_npu(0x17f0, std::nullopt)->compute_class, "xdna2");
  EXPECT_FALSE(find_amd_npu(0x1586, 0));
}

TEST(IntelGpuIds, DiscreteAndIntegrated) {
  EXPECT_TRUE(find_intel_gpu(0x0bd5)->discrete);
  EXPECT_FALSE(find_intel_gpu(0x7d55)->discrete);
  EXPECT_FALSE(find_intel_gpu(0x1234));
}

}  // namespace
}  // namespace hwaccel
