// The Vulkan view of fixture hosts (vulkan/vulkan_model.h): the devices the
// simulated driver lists, their types, ids, driver fields and memory heaps; the
// version packing vulkaninfo decodes; and hostile detections (long names, many
// devices, versions out of range) answered within bounds.
#include "vulkan/vulkan_model.h"

#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "tests/support/test_support.h"

namespace hwaccel::vulkan {
namespace {

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

struct Fixture {
  Detection detection;
  Model model;
};

Fixture fixture(const std::string& name) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + name + ".yaml"));
  EXPECT_TRUE(loaded.snapshot) << name;
  SnapshotHost host(std::move(*loaded.snapshot));
  Fixture f;
  f.detection = detect(host);
  std::optional<VulkanSummary> summary;
  if (ToolRun run = host.run({"vulkaninfo", "--summary"}); run.ok())
    summary = parse_vulkaninfo_summary(run.out);
  f.model = make_model(f.detection, summary ? &*summary : nullptr);
  return f;
}

std::uint64_t host_memory(const Detection& d) {
  for (const auto& e : d.entries)
    if (e.backend == "cpu") return e.memory.total_bytes.value_or(0);
  return 0;
}

TEST(VulkanModel, ApiVersions) {
  EXPECT_EQ(parse_api_version("1.3.289"), (1u << 22) | (3u << 12) | 289u);
  EXPECT_EQ(parse_api_version(" 1.2 "), (1u << 22) | (2u << 12));
  for (const char* bad : {"", "1", "1.", ".1", "a.b", "1.3.4096", "1.1024.0", "1.2.3.4",
                          "9999999.1", "1.3.-1", "1..3"})
    EXPECT_FALSE(parse_api_version(bad)) << bad;
}

TEST(VulkanModel, DriverVersionsPackAsVulkaninfoDecodesThem) {
  EXPECT_EQ(pack_driver_version("24.2.8", false), (24u << 22) | (2u << 12) | 8u);
  EXPECT_EQ(pack_driver_version("535.154.5.0", true), (535u << 22) | (154u << 14) | (5u << 6) | 0u);
  EXPECT_FALSE(pack_driver_version("1.2.3.4", false));  // four parts: NVIDIA's only
  EXPECT_FALSE(pack_driver_version("1024.0.0", false));
  EXPECT_FALSE(pack_driver_version("535.256.0.0", true));
  EXPECT_FALSE(pack_driver_version("Mesa 24.2.8", false));
}

TEST(VulkanModel, DriverIds) {
  EXPECT_EQ(driver_id_of("DRIVER_ID_MESA_RADV"), 3u);
  EXPECT_EQ(driver_id_of("DRIVER_ID_NVIDIA_PROPRIETARY"), 4u);
  EXPECT_EQ(driver_id_of("DRIVER_ID_MESA_LLVMPIPE"), 13u);
  EXPECT_EQ(driver_id_of("DRIVER_ID_MESA_NVK"), 24u);
  EXPECT_EQ(driver_id_of("DRIVER_ID_"), 0u);
  EXPECT_EQ(driver_id_of("radv"), 0u);
}

TEST(VulkanModel, DesktopListsTheNvkGpuAndLlvmpipe) {
  Fixture f = fixture("vulkan-desktop");
  ASSERT_TRUE(f.model.has_driver);
  ASSERT_EQ(f.model.devices.size(), 2u);
  const Device& gpu = f.model.devices[0];
  EXPECT_EQ(gpu.name, "NVIDIA GeForce RTX 3090 (NVK GA102)");
  EXPECT_EQ(gpu.kind, DeviceKind::discrete);
  EXPECT_EQ(gpu.vendor_id, 0x10deu);
  EXPECT_EQ(gpu.device_id, 0x2204u);
  EXPECT_EQ(gpu.driver_id, 24u);  // NVK
  EXPECT_EQ(gpu.driver_name, "NVK");
  EXPECT_EQ(gpu.api_version, (1u << 22) | (3u << 12) | 289u);
  EXPECT_EQ(gpu.driver_version, (24u << 22) | (2u << 12) | 8u);  // Mesa's packing, not NVIDIA's
  EXPECT_EQ(gpu.device_uuid[0], 0x9c);
  // Discrete: VRAM (nouveau reports none; the catalogue's 24 GiB) and the host's memory.
  ASSERT_EQ(gpu.heaps.size(), 2u);
  EXPECT_TRUE(gpu.heaps[0].device_local);
  EXPECT_EQ(gpu.heaps[0].size, 24 * kGiB);
  EXPECT_NE(gpu.memory_source.find("catalogue"), std::string::npos) << gpu.memory_source;
  EXPECT_FALSE(gpu.heaps[1].device_local);
  EXPECT_EQ(gpu.heaps[1].size, host_memory(f.detection));
  const Device& cpu = f.model.devices[1];
  EXPECT_EQ(cpu.kind, DeviceKind::cpu);
  EXPECT_EQ(cpu.vendor_id, 0x10005u);
  EXPECT_EQ(cpu.driver_id, 13u);
  ASSERT_EQ(cpu.heaps.size(), 1u);
  EXPECT_TRUE(cpu.heaps[0].device_local);
  EXPECT_EQ(cpu.heaps[0].size, host_memory(f.detection));
}

TEST(VulkanModel, IntegratedGpuSharesTheHostsMemory) {
  Fixture f = fixture("meteor-lake-npu");
  ASSERT_EQ(f.model.devices.size(), 2u);
  const Device& igpu = f.model.devices[0];
  EXPECT_EQ(igpu.kind, DeviceKind::integrated);
  EXPECT_EQ(igpu.vendor_id, 0x8086u);
  ASSERT_EQ(igpu.heaps.size(), 1u);
  EXPECT_EQ(igpu.heaps[0].size, host_memory(f.detection));
  EXPECT_GT(igpu.heaps[0].size, 0u);
}

TEST(VulkanModel, SoftwareRendererFromItsManifestOnly) {
  Fixture f = fixture("llvmpipe-mesa");  // vulkaninfo not recorded
  ASSERT_EQ(f.model.devices.size(), 1u);
  EXPECT_EQ(f.model.devices[0].name, "llvmpipe");
  EXPECT_EQ(f.model.devices[0].kind, DeviceKind::cpu);
  EXPECT_EQ(f.model.devices[0].driver_name, "llvmpipe");
}

TEST(VulkanModel, HostsWithoutADriverHaveNone) {
  for (const char* name : {"vulkan-no-driver", "vulkan-no-manifest", "cpu-only", "dgx-h100"}) {
    Fixture f = fixture(name);
    EXPECT_FALSE(f.model.has_driver) << name;
    EXPECT_TRUE(f.model.devices.empty()) << name;
    EXPECT_FALSE(f.model.why.empty()) << name;
  }
}

Entry vulkan_entry(int index, std::string name) {
  Entry e;
  e.backend = "vulkan";
  e.index = index;
  e.name = std::move(name);
  e.type = DeviceType::gpu;
  e.physical_id = "pci:0000:0" + std::to_string(index % 10) + ":00.0";
  return e;
}

TEST(VulkanModel, AnotherBackendsMemoryIsTheDevicesHeap) {
  Detection d;
  Entry v = vulkan_entry(0, "AMD Instinct MI300X");
  Entry rocm = v;
  rocm.backend = "rocm";
  rocm.memory.total_bytes = 192 * kGiB;
  d.entries = {rocm, v};
  Model m = make_model(d, nullptr);
  ASSERT_EQ(m.devices.size(), 1u);
  EXPECT_EQ(m.devices[0].heaps[0].size, 192 * kGiB);
  EXPECT_EQ(m.devices[0].memory_source, "rocm:0");
  EXPECT_EQ(m.devices[0].heaps[1].size, kGiB);  // host memory unknown: 1 GiB, said
}

TEST(VulkanModel, HostileDetectionsStayWithinBounds) {
  Detection d;
  for (int i = 0; i < 80; ++i) d.entries.push_back(vulkan_entry(i, std::string(1000, 'x')));
  d.entries[0].compute_class = "vulkan-999.99999.1";
  VulkanSummary summary;
  VulkanPhysicalDevice recorded;
  recorded.index = 1;
  recorded.name = std::string(5000, 'n');
  recorded.driver_name = std::string(5000, 'd');
  recorded.driver_info = std::string(5000, 'i');
  recorded.driver_version = "99999999999999999999.1";
  recorded.api_version = "not a version";
  recorded.type = "PHYSICAL_DEVICE_TYPE_SOMETHING";
  recorded.vendor_id = 0xffffffffu;
  summary.devices = {recorded, recorded};  // a repeated index: the last one counts
  Model m = make_model(d, &summary);
  ASSERT_EQ(m.devices.size(), kMaxDevices);
  for (const Device& dev : m.devices) {
    EXPECT_LE(dev.name.size(), 255u);
    EXPECT_LE(dev.driver_name.size(), 255u);
    EXPECT_LE(dev.driver_info.size(), 255u);
    EXPECT_FALSE(dev.heaps.empty());
  }
  EXPECT_EQ(m.devices[0].api_version, (1u << 22) | (3u << 12));  // the default, 1.3.0
  EXPECT_EQ(m.devices[1].driver_version, 0u);
  EXPECT_EQ(m.devices[1].vendor_id, 0xffffffffu);
  EXPECT_EQ(m.devices[1].kind, DeviceKind::discrete);
}

}  // namespace
}  // namespace hwaccel::vulkan
