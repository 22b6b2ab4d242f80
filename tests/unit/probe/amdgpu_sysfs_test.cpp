#include "src/probe/amdgpu_sysfs.h"

#include <gtest/gtest.h>

#include "src/catalog/amd_pci_ids.h"

namespace hwaccel {
namespace {

TEST(AmdgpuSysfs, CardsAreNotConnectorsOrRenderNodes) {
  EXPECT_TRUE(is_drm_card_name("card0"));
  EXPECT_TRUE(is_drm_card_name("card12"));
  EXPECT_FALSE(is_drm_card_name("card0-DP-1"));
  EXPECT_FALSE(is_drm_card_name("card1-HDMI-A-1"));
  EXPECT_FALSE(is_drm_card_name("renderD128"));
  EXPECT_FALSE(is_drm_card_name("version"));
  EXPECT_FALSE(is_drm_card_name("card"));
  EXPECT_FALSE(is_drm_card_name("cardX"));
}

TEST(AmdgpuSysfs, BytesAreWholeDecimalNumbers) {
  EXPECT_EQ(parse_sysfs_bytes("8573157376\n"), 8573157376u);
  EXPECT_EQ(parse_sysfs_bytes("205822885888"), 205822885888u);
  EXPECT_FALSE(parse_sysfs_bytes(""));
  EXPECT_FALSE(parse_sysfs_bytes("-1\n"));
  EXPECT_FALSE(parse_sysfs_bytes("12 MB"));
  EXPECT_FALSE(parse_sysfs_bytes("99999999999999999999999"));
}

TEST(AmdgpuSysfs, ReadsTheDeviceUevent) {
  // The Prometheus procfs fixture's card0 (an RX Vega 64).
  auto u = parse_drm_device_uevent(
      "DRIVER=amdgpu\nPCI_CLASS=30000\nPCI_ID=1002:687F\nPCI_SUBSYS_ID=1043:04C4\n"
      "PCI_SLOT_NAME=0000:09:00.0\n"
      "MODALIAS=pci:v00001002d0000687Fsv00001043sd000004C4bc03sc00i00\n");
  EXPECT_EQ(u.driver, "amdgpu");
  EXPECT_EQ(u.vendor, 0x1002);
  EXPECT_EQ(u.device, 0x687f);
  EXPECT_EQ(u.slot_name, "0000:09:00.0");

  auto unbound = parse_drm_device_uevent("PCI_ID=1002:74A1\nPCI_SLOT_NAME=0000:0C:00.0\n");
  EXPECT_EQ(unbound.driver, "");
  EXPECT_EQ(unbound.slot_name, "0000:0c:00.0");

  auto garbage = parse_drm_device_uevent("PCI_ID=zz:1\nPCI_SLOT_NAME=nonsense\n\x01\x02=");
  EXPECT_FALSE(garbage.vendor);
  EXPECT_FALSE(garbage.device);
  EXPECT_EQ(garbage.slot_name, "");
}

TEST(AmdgpuSysfs, PciAddresses) {
  EXPECT_EQ(normalize_pci_address("0000:C1:00.0\n"), "0000:c1:00.0");
  EXPECT_FALSE(normalize_pci_address("c1:00.0"));
  EXPECT_FALSE(normalize_pci_address("0000:c1:00"));
  EXPECT_FALSE(normalize_pci_address("0000:c1:20.0"));  // device 0x20 > 31
  EXPECT_FALSE(normalize_pci_address("0000:c1:00.8"));  // function 8 > 7
  EXPECT_FALSE(normalize_pci_address("amdgpu_xcp_0"));
  auto parts = parse_pci_address("0001:75:01.3");
  ASSERT_TRUE(parts);
  EXPECT_EQ(parts->domain, 1u);
  EXPECT_EQ(parts->bus, 0x75);
  EXPECT_EQ(parts->devfn_id(), 0x750b);  // pci_dev_id(): bus << 8 | dev << 3 | fn
  EXPECT_EQ(parse_pci_address("0000:0c:00.0")->devfn_id(), 3072);
}

TEST(AmdgpuSysfs, LinkBasenames) {
  EXPECT_EQ(link_basename("../../../0000:c1:00.0"), "0000:c1:00.0");
  EXPECT_EQ(link_basename("../../../../bus/pci/drivers/amdgpu"), "amdgpu");
  EXPECT_EQ(link_basename("vfio-pci/"), "vfio-pci");
  EXPECT_EQ(link_basename(""), "");
}

TEST(AmdgpuSysfs, PartitionModes) {
  EXPECT_EQ(parse_partition_mode("SPX\n"), "SPX");
  EXPECT_EQ(parse_partition_mode("cpx"), "CPX");
  EXPECT_EQ(parse_partition_mode("NPS4\n"), "NPS4");
  EXPECT_EQ(parse_partition_mode(""), "");
  EXPECT_EQ(parse_partition_mode("SPX, DPX, CPX"), "");  // the available_* list, not a mode
  EXPECT_EQ(parse_partition_mode("X"), "");
}

TEST(AmdgpuSysfs, RenderMinorFromTheDeviceDrmFolder) {
  EXPECT_EQ(render_minor_from_names({"card0", "renderD128"}), 128);
  EXPECT_EQ(render_minor_from_names({"card3", "renderD131"}), 131);
  EXPECT_FALSE(render_minor_from_names({"card0"}));
  EXPECT_FALSE(render_minor_from_names({"renderD", "renderDx"}));
}

TEST(AmdPciIds, KnowsTheVerifiedIdsAndWhichAreApus) {
  auto mi300x = find_amd_gpu_model(0x74a1);
  ASSERT_TRUE(mi300x);
  EXPECT_EQ(mi300x->name, "AMD Instinct MI300X");
  EXPECT_FALSE(mi300x->apu);
  EXPECT_EQ(find_amd_gpu_model(0x74a5)->name, "AMD Instinct MI325X");
  EXPECT_EQ(find_amd_gpu_model(0x740c)->name, "AMD Instinct MI250X/MI250");
  EXPECT_EQ(find_amd_gpu_model(0x740f)->name, "AMD Instinct MI210");
  EXPECT_EQ(find_amd_gpu_model(0x744c)->name, "AMD Radeon RX 7900 XT/7900 XTX/7900M");
  EXPECT_EQ(find_amd_gpu_model(0x7448)->name, "AMD Radeon PRO W7900");
  for (std::uint16_t apu : {0x15bf, 0x1586, 0x164e, 0x74a0}) {
    auto model = find_amd_gpu_model(apu);
    ASSERT_TRUE(model) << apu;
    EXPECT_TRUE(model->apu) << model->name;
  }
  EXPECT_FALSE(find_amd_gpu_model(0x0000));
  EXPECT_FALSE(find_amd_gpu_model(0xffff));
  EXPECT_FALSE(find_amd_gpu_model(0x1640));  // the HD audio function beside a GPU
}

// The ids issue 35 found shown as "AMD GPU 0x738c", and one of each family
// added from pci.ids 2026.08.22 (vendor 1002's device lines).
TEST(AmdPciIds, InstinctRadeonProAndRadeonRxByPciId) {
  auto name = [](std::uint16_t id) {
    auto model = find_amd_gpu_model(id);
    return model ? std::string(model->name) : std::string("unknown");
  };
  EXPECT_EQ(name(0x738c), "AMD Instinct MI100");
  EXPECT_EQ(name(0x738e), "AMD Instinct MI100");
  EXPECT_EQ(name(0x66a1), "AMD Radeon Instinct MI50/Radeon Pro VII");
  EXPECT_EQ(name(0x6860), "AMD Instinct MI25/MI25x2/V340/V320");
  EXPECT_EQ(name(0x7408), "AMD Instinct MI250X");
  EXPECT_EQ(name(0x74a2), "AMD Instinct MI308X");
  EXPECT_EQ(name(0x74b5), "AMD Instinct MI300X VF");
  EXPECT_EQ(name(0x75a0), "AMD Instinct MI350X");
  EXPECT_EQ(name(0x75a3), "AMD Instinct MI355X");
  EXPECT_EQ(name(0x73a3), "AMD Radeon PRO W6800");
  EXPECT_EQ(name(0x745e), "AMD Radeon PRO W7800");
  EXPECT_EQ(name(0x73a1), "AMD Radeon Pro V620");
  EXPECT_EQ(name(0x7362), "AMD Radeon Pro V520/V540");
  EXPECT_EQ(name(0x731f), "AMD Radeon RX 5600 OEM/5600 XT/5700/5700 XT");
  EXPECT_EQ(name(0x73bf), "AMD Radeon RX 6800/6800 XT/6900 XT");
  EXPECT_EQ(name(0x747e), "AMD Radeon RX 7700 XT/7800 XT");
  EXPECT_EQ(name(0x7550), "AMD Radeon RX 9070/9070 XT/9070 GRE");
  EXPECT_EQ(name(0x7551), "AMD Radeon AI PRO R9700");
  for (std::uint16_t id : {0x738c, 0x66a1, 0x7550, 0x75a0})
    EXPECT_FALSE(find_amd_gpu_model(id)->apu);
}

}  // namespace
}  // namespace hwaccel
