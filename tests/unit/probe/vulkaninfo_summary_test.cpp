#include "src/probe/vulkaninfo_summary.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

// Two drivers for one RX 6700 XT on an Arch desktop (vulkaninfo 1.4.328; lutris
// issue #6466): RADV and AMD's proprietary driver list the same card twice.
constexpr const char* kRadvAndAmdvlk =
    "==========\nVULKANINFO\n==========\n\nVulkan Instance Version: 1.4.328\n\n\n"
    "Instance Extensions: count = 2\n-------------------------------\n"
    "VK_EXT_acquire_drm_display             : extension revision 1\n"
    "VK_KHR_surface                         : extension revision 25\n\n"
    "Devices:\n========\nGPU0:\n"
    "\tapiVersion         = 1.4.328\n"
    "\tdriverVersion      = 25.3.5\n"
    "\tvendorID           = 0x1002\n"
    "\tdeviceID           = 0x73df\n"
    "\tdeviceType         = PHYSICAL_DEVICE_TYPE_DISCRETE_GPU\n"
    "\tdeviceName         = AMD Radeon RX 6700 XT (RADV NAVI22)\n"
    "\tdriverID           = DRIVER_ID_MESA_RADV\n"
    "\tdriverName         = radv\n"
    "\tdriverInfo         = Mesa 25.3.5-arch1.1\n"
    "\tconformanceVersion = 1.4.0.0\n"
    "\tdeviceUUID         = 00000000-0c00-0000-0000-000000000000\n"
    "\tdriverUUID         = 414d442d-4d45-5341-2d44-525600000000\n"
    "GPU1:\n"
    "\tapiVersion         = 1.3.206\n"
    "\tdriverVersion      = 2.0.218\n"
    "\tvendorID           = 0x1002\n"
    "\tdeviceID           = 0x73df\n"
    "\tdeviceType         = PHYSICAL_DEVICE_TYPE_DISCRETE_GPU\n"
    "\tdeviceName         = AMD Radeon RX 6700 XT\n"
    "\tdriverID           = DRIVER_ID_AMD_PROPRIETARY\n"
    "\tdriverName         = AMD proprietary driver\n"
    "\tdriverInfo         =\n"
    "\tconformanceVersion = 1.3.0.0\n"
    "\tdeviceUUID         = 00000000-0c00-0000-0000-000000000000\n";

// The first --summary releases (1.2.x SDK) print versions as integers with the
// decoded form in parentheses, and no UUIDs.
constexpr const char* kOldSdkNvidiaAndLlvmpipe =
    "Devices:\n========\nGPU0:\n"
    "\tapiVersion         = 4202671 (1.2.175)\n"
    "\tdriverVersion      = 1955872768 (0x74944000)\n"
    "\tvendorID           = 0x10de\n"
    "\tdeviceID           = 0x2204\n"
    "\tdeviceType         = PHYSICAL_DEVICE_TYPE_DISCRETE_GPU\n"
    "\tdeviceName         = NVIDIA GeForce RTX 3090\n"
    "\tdriverID           = DRIVER_ID_NVIDIA_PROPRIETARY\n"
    "\tdriverName         = NVIDIA\n"
    "\tdriverInfo         = 466.81\n"
    "\tconformanceVersion = 1.2.6.0\n"
    "GPU1:\n"
    "\tapiVersion         = 4198400 (1.1.0)\n"
    "\tdriverVersion      = 1 (0x0001)\n"
    "\tvendorID           = 0x10005\n"
    "\tdeviceID           = 0x0000\n"
    "\tdeviceType         = PHYSICAL_DEVICE_TYPE_CPU\n"
    "\tdeviceName         = llvmpipe (LLVM 12.0.0, 256 bits)\n"
    "\tdriverID           = DRIVER_ID_MESA_LLVMPIPE\n"
    "\tdriverName         = llvmpipe\n"
    "\tdriverInfo         = Mesa 21.2.6 (LLVM 12.0.0)\n"
    "\tconformanceVersion = 1.0.0.0\n";

TEST(VulkaninfoSummary, ReadsEveryDeviceOfANewSdk) {
  auto s = parse_vulkaninfo_summary(kRadvAndAmdvlk);
  EXPECT_TRUE(s.devices_section);
  EXPECT_TRUE(s.problems.empty());
  ASSERT_EQ(s.devices.size(), 2u);
  const auto& radv = s.devices[0];
  EXPECT_EQ(radv.index, 0);
  EXPECT_EQ(radv.name, "AMD Radeon RX 6700 XT (RADV NAVI22)");
  EXPECT_EQ(radv.vendor_id, 0x1002u);
  EXPECT_EQ(radv.device_id, 0x73dfu);
  EXPECT_EQ(radv.api_version, "1.4.328");
  EXPECT_EQ(radv.driver_version, "25.3.5");
  EXPECT_EQ(radv.driver_id, "DRIVER_ID_MESA_RADV");
  EXPECT_EQ(radv.driver_info, "Mesa 25.3.5-arch1.1");
  ASSERT_TRUE(radv.device_uuid);
  EXPECT_EQ(format_uuid(*radv.device_uuid), "00000000-0c00-0000-0000-000000000000");
  EXPECT_EQ(amd_vulkan_uuid_pci_address(*radv.device_uuid), "0000:0c:00.0");
  EXPECT_FALSE(is_software_vulkan_device(radv));
  EXPECT_EQ(s.devices[1].driver_info, "");  // "driverInfo         =" with nothing after
  EXPECT_EQ(s.devices[1].api_version, "1.3.206");
}

TEST(VulkaninfoSummary, DecodesTheOldSdksIntegerVersions) {
  auto s = parse_vulkaninfo_summary(kOldSdkNvidiaAndLlvmpipe);
  ASSERT_EQ(s.devices.size(), 2u);
  EXPECT_EQ(s.devices[0].api_version, "1.2.175");
  // 0x74944000: NVIDIA's 10.8.8.6 packing -> 466.81.0.0
  EXPECT_EQ(s.devices[0].driver_version, "466.81.0.0");
  EXPECT_FALSE(s.devices[0].device_uuid);
  EXPECT_FALSE(is_software_vulkan_device(s.devices[0]));
  EXPECT_EQ(s.devices[1].vendor_id, 0x10005u);  // VK_VENDOR_ID_MESA does not fit 16 bits
  EXPECT_EQ(s.devices[1].driver_version, "0.0.1");
  EXPECT_TRUE(is_software_vulkan_device(s.devices[1]));
}

TEST(VulkaninfoSummary, VersionDecoding) {
  EXPECT_EQ(vulkan_api_version_text("4206828"), "1.3.236");  // bare integer
  EXPECT_EQ(vulkan_api_version_text("4206828 (1.3.236)"), "1.3.236");
  EXPECT_EQ(vulkan_api_version_text("banana"), "");
  EXPECT_EQ(vulkan_driver_version_text("2223653056 (0x848a40c0)", 0x10de), "530.41.3.0");
  EXPECT_EQ(vulkan_driver_version_text("1.2.3", std::nullopt), "1.2.3");
  EXPECT_EQ(vulkan_driver_version_text("99999999999999999999", 0x10de), "99999999999999999999");
}

TEST(VulkaninfoSummary, SoftwareDevicesByTypeDriverOrName) {
  VulkanPhysicalDevice d;
  d.name = "SwiftShader Device (Subzero)";
  d.type = "PHYSICAL_DEVICE_TYPE_CPU";
  EXPECT_TRUE(is_software_vulkan_device(d));
  d.type = "PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU";
  d.driver_id = "DRIVER_ID_GOOGLE_SWIFTSHADER";
  EXPECT_TRUE(is_software_vulkan_device(d));
  VulkanPhysicalDevice gpu;
  gpu.name = "Intel(R) Graphics (MTL)";
  gpu.type = "PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU";
  gpu.driver_id = "DRIVER_ID_INTEL_OPEN_SOURCE_MESA";
  EXPECT_FALSE(is_software_vulkan_device(gpu));
}

TEST(VulkaninfoSummary, AmdUuidThatIsNoAddress) {
  auto zero = parse_vulkan_uuid("00000000-0000-0000-0000-000000000000");
  ASSERT_TRUE(zero);
  EXPECT_FALSE(amd_vulkan_uuid_pci_address(*zero));
  auto hashed = parse_vulkan_uuid("754d9ae2-8df5-f8e3-3502-182434a12876");
  ASSERT_TRUE(hashed);
  EXPECT_FALSE(amd_vulkan_uuid_pci_address(*hashed));
  auto with_domain = parse_vulkan_uuid("01000000-c100-0000-0000-000000000000");
  EXPECT_EQ(amd_vulkan_uuid_pci_address(*with_domain), "0001:c1:00.0");
  EXPECT_FALSE(parse_vulkan_uuid("0000-00"));
  EXPECT_FALSE(parse_vulkan_uuid("zz000000-0000-0000-0000-000000000000"));
  EXPECT_FALSE(parse_vulkan_uuid("00000000-0000-0000-0000-00000000000000"));
}

TEST(VulkaninfoSummary, NoDriverIsDriverNotFound) {
  // Debian 12, vulkan-tools 1.3.239 without any ICD (recorded on the CI machine).
  const char* err =
      "ERROR: [Loader Message] Code 0 : vkCreateInstance: Found no drivers!\n"
      "Cannot create Vulkan instance.\n"
      "This problem is often caused by a faulty installation of the Vulkan driver or attempting "
      "to use a GPU that does not support Vulkan.\n"
      "ERROR at ./vulkaninfo/vulkaninfo.h:674:vkCreateInstance failed with "
      "ERROR_INCOMPATIBLE_DRIVER\n";
  auto reason = known_vulkaninfo_error(err);
  ASSERT_TRUE(reason);
  EXPECT_EQ(reason->code, ReasonCode::driver_not_found);
  EXPECT_EQ(reason->detail, "ERROR: [Loader Message] Code 0 : vkCreateInstance: Found no drivers!");
  auto init = known_vulkaninfo_error(
      "ERROR at vulkaninfo.h:237:vkEnumeratePhysicalDevices failed with "
      "ERROR_INITIALIZATION_FAILED\n");
  ASSERT_TRUE(init);
  EXPECT_EQ(init->code, ReasonCode::probe_failed);
  EXPECT_FALSE(known_vulkaninfo_error("all fine\n"));
}

TEST(VulkaninfoSummary, UglyInput) {
  auto none = parse_vulkaninfo_summary("");
  EXPECT_FALSE(none.devices_section);
  EXPECT_TRUE(none.devices.empty());

  // CRLF, a loader warning inside the section, a stray line, a key before any GPU.
  auto s = parse_vulkaninfo_summary(
      "Devices:\r\n========\r\n\tdeviceName = orphan\r\nGPU0:\r\n"
      "WARNING: [Loader Message] Code 0 : ICD for selected physical device does not export "
      "vkGetPhysicalDeviceDisplayPropertiesKHR!\r\n"
      "\tvendorID = 0xzz\r\n\tdeviceName = Weird = Name\r\nnonsense here\r\nGPU1:\r\n");
  EXPECT_TRUE(s.devices_section);
  ASSERT_EQ(s.devices.size(), 2u);
  EXPECT_EQ(s.devices[0].name, "Weird = Name");
  EXPECT_FALSE(s.devices[0].vendor_id);
  EXPECT_EQ(s.devices[1].name, "");
  EXPECT_EQ(s.problems.size(), 4u);  // orphan, vendorID, nonsense, GPU1 without a name

  EXPECT_EQ(vulkan_device_type_text("PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU"), "integrated GPU");
  EXPECT_EQ(vulkan_device_type_text("X"), "X");
}

}  // namespace
}  // namespace hwaccel
