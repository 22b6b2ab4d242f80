#include "src/probe/apple_system_profiler.h"

#include <gtest/gtest.h>

#include "src/probe/apple_silicon.h"

namespace hwaccel {
namespace {

// An M3 Pro MacBook with an external display (timmo001/system-bridge PR #3408),
// cut to the fields read plus one display.
constexpr const char* kM3Pro = R"({
  "SPDisplaysDataType" : [
    {
      "_name" : "Apple M3 Pro",
      "spdisplays_mtlgpufamilysupport" : "spdisplays_metal3",
      "spdisplays_ndrvs" : [
        {
          "_name" : "DELL U2722DE",
          "_spdisplays_display-product-id" : "4231",
          "_spdisplays_pixels" : "2560 x 1440",
          "spdisplays_main" : "spdisplays_yes"
        }
      ],
      "spdisplays_vendor" : "sppci_vendor_Apple",
      "sppci_bus" : "spdisplays_builtin",
      "sppci_cores" : "18",
      "sppci_device_type" : "spdisplays_gpu",
      "sppci_model" : "Apple M3 Pro"
    }
  ]
})";

// macOS 11 on an M1 (exelban/stats issue #394): untranslated name, older key.
constexpr const char* kM1BigSur = R"({
  "SPDisplaysDataType" : [
    {
      "_name" : "kHW_AppleM1Item",
      "spdisplays_metalfamily" : "spdisplays_mtlgpufamilyapple7",
      "spdisplays_ndrvs" : [ { "_name" : "Color LCD" } ]
    }
  ]
})";

// A 16-inch MacBook Pro (2019): Intel UHD 630 and a Radeon Pro 5500M.
constexpr const char* kIntelMac = R"({
  "SPDisplaysDataType" : [
    { "_name" : "kHW_IntelUHDGraphics630Item", "spdisplays_automatic_graphics_switching" : "spdisplays_supported",
      "spdisplays_device-id" : "0x3e9b", "spdisplays_metal" : "spdisplays_metalfeaturesetfamily14",
      "spdisplays_vendor" : "sppci_vendor_intel", "spdisplays_vram_shared" : "1536 MB",
      "sppci_bus" : "spdisplays_builtin", "sppci_device_type" : "spdisplays_gpu",
      "sppci_model" : "Intel UHD Graphics 630" },
    { "_name" : "kHW_AMDRadeonPro5500MItem", "spdisplays_device-id" : "0x7340",
      "spdisplays_mtlgpufamilysupport" : "spdisplays_metal3", "spdisplays_vendor" : "sppci_vendor_amd",
      "spdisplays_vram" : "8 GB", "sppci_bus" : "spdisplays_pcie_device",
      "sppci_device_type" : "spdisplays_gpu", "sppci_model" : "AMD Radeon Pro 5500M" }
  ]
})";

TEST(AppleSystemProfiler, AppleSilicon) {
  auto d = parse_sp_displays_json(kM3Pro);
  EXPECT_TRUE(d.valid_json);
  EXPECT_TRUE(d.problems.empty());
  ASSERT_EQ(d.gpus.size(), 1u);
  EXPECT_EQ(d.gpus[0].model, "Apple M3 Pro");
  EXPECT_EQ(d.gpus[0].cores, 18);
  EXPECT_EQ(d.gpus[0].metal, "Metal 3");
  EXPECT_EQ(metal_compute_class(d.gpus[0].metal), "metal3");
  EXPECT_EQ(d.gpus[0].vendor, "Apple");
  EXPECT_TRUE(d.gpus[0].builtin);
  EXPECT_FALSE(d.gpus[0].vram_bytes);
}

TEST(AppleSystemProfiler, BigSurM1) {
  auto d = parse_sp_displays_json(kM1BigSur);
  ASSERT_EQ(d.gpus.size(), 1u);
  EXPECT_EQ(d.gpus[0].model, "Apple M1");
  EXPECT_EQ(d.gpus[0].metal, "Apple 7");
  EXPECT_EQ(d.gpus[0].vendor, "Apple");
  EXPECT_FALSE(d.gpus[0].cores);
}

TEST(AppleSystemProfiler, IntelMacWithTwoGpus) {
  auto d = parse_sp_displays_json(kIntelMac);
  ASSERT_EQ(d.gpus.size(), 2u);
  EXPECT_EQ(d.gpus[0].vendor, "Intel");
  EXPECT_EQ(d.gpus[0].metal, "Metal feature set family 14");
  EXPECT_EQ(d.gpus[0].vram_bytes, 1536ull << 20);
  EXPECT_EQ(d.gpus[1].model, "AMD Radeon Pro 5500M");
  EXPECT_EQ(d.gpus[1].vendor, "AMD");
  EXPECT_FALSE(d.gpus[1].builtin);
  EXPECT_EQ(d.gpus[1].vram_bytes, 8ull << 30);
  EXPECT_EQ(d.gpus[1].device_id, 0x7340);
}

TEST(AppleSystemProfiler, UglyInput) {
  EXPECT_FALSE(parse_sp_displays_json("").valid_json);
  EXPECT_FALSE(parse_sp_displays_json("[1,2]").valid_json);
  EXPECT_FALSE(parse_sp_displays_json("{\"SPDisplaysDataType\": [").valid_json);
  auto no_array = parse_sp_displays_json("{\"SPDisplaysDataType\": 3}");
  EXPECT_TRUE(no_array.valid_json);
  EXPECT_EQ(no_array.problems.size(), 1u);
  auto odd = parse_sp_displays_json(
      "{\"SPDisplaysDataType\": [7, {\"sppci_cores\": \"x\"}, {\"_name\": 5, \"sppci_model\": "
      "\"Apple M9\", \"sppci_cores\": \"99999999999\"}]}");
  ASSERT_EQ(odd.gpus.size(), 1u);
  EXPECT_EQ(odd.problems.size(), 2u);
  EXPECT_FALSE(odd.gpus[0].cores);
  EXPECT_EQ(odd.gpus[0].vendor, "Apple");
}

TEST(AppleSystemProfiler, Sysctl) {
  EXPECT_EQ(parse_sysctl_u64("137438953472\n"), 137438953472ull);
  EXPECT_FALSE(parse_sysctl_u64("sysctl: unknown oid 'iogpu.wired_limit_mb'"));
  EXPECT_FALSE(parse_sysctl_u64(""));
}

TEST(AppleSilicon, WorkingSetRule) {
  constexpr std::uint64_t kGiB = 1ull << 30;
  // The figures ggml logs as recommendedMaxWorkingSetSize (MiB).
  EXPECT_EQ(apple_working_set(16 * kGiB, std::nullopt).bytes / (1 << 20), 10922u);
  EXPECT_EQ(apple_working_set(32 * kGiB, std::nullopt).bytes / (1 << 20), 21845u);
  EXPECT_EQ(apple_working_set(96 * kGiB, std::nullopt).bytes, 73728ull << 20);
  EXPECT_EQ(apple_working_set(192 * kGiB, std::nullopt).bytes, 147456ull << 20);
  EXPECT_EQ(apple_working_set(36 * kGiB, 0).bytes, 24 * kGiB);
  auto wired = apple_working_set(128 * kGiB, 114688);
  EXPECT_EQ(wired.bytes, 112 * kGiB);
  EXPECT_NE(wired.rule.find("iogpu.wired_limit_mb"), std::string::npos);
  // A wired limit above RAM is not believed.
  EXPECT_EQ(apple_working_set(16 * kGiB, 1u << 30).bytes, 16 * kGiB / 3 * 2);
}

TEST(AppleSilicon, DeviceTree) {
  using namespace std::string_literals;
  const std::string mbp = "apple,j316c\0apple,t6001\0apple,arm-platform\0"s;
  std::string soc;
  EXPECT_TRUE(is_apple_device_tree(mbp));
  EXPECT_EQ(apple_soc_name(mbp, &soc), "Apple M1 Max");
  EXPECT_EQ(soc, "t6001");
  EXPECT_EQ(apple_soc_name("apple,j999\0apple,t9999\0"s, &soc), "");
  EXPECT_EQ(soc, "t9999");
  EXPECT_FALSE(is_apple_device_tree("raspberrypi,4-model-b\0brcm,bcm2711\0"s));
  EXPECT_FALSE(is_apple_device_tree(""));
  EXPECT_EQ(apple_neural_engine_cores("Apple M2 Ultra"), 32);
  EXPECT_EQ(apple_neural_engine_cores("Apple M3 Max"), 16);
}

}  // namespace
}  // namespace hwaccel
