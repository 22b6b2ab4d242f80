// The Apple, Vulkan, Intel NPU, AMD XDNA and oneAPI probes on hosts built file
// by file and replayed through the real SnapshotHost.
#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "src/probe/amd_xdna_probe.h"
#include "src/probe/apple_probe.h"
#include "src/probe/intel_npu_probe.h"
#include "src/probe/oneapi_probe.h"
#include "src/probe/vulkan_probe.h"
#include "src/registry/detection.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

struct HostBuilder {
  Snapshot snapshot;
  HostBuilder() {
    snapshot.facts.os = "linux";
    snapshot.facts.arch = "x86_64";
  }
  void file(const std::string& path, std::string content) {
    snapshot.files[path] = FileEntry::of_content(std::move(content));
  }
  void link(const std::string& path, std::string target) {
    snapshot.files[path] = FileEntry::of_link(std::move(target));
  }
  void error(const std::string& path, int code) {
    snapshot.files[path] = FileEntry::of_error(code);
  }
  void node(const std::string& path) {
    snapshot.files[path] = FileEntry::of_node(FileKind::char_device);
  }
  void tool(std::vector<std::string> argv, int exit_code, std::string out, std::string err = "") {
    ToolEntry t;
    t.argv = argv;
    t.run.exit_code = exit_code;
    t.run.out = std::move(out);
    t.run.err = std::move(err);
    snapshot.tools[argv] = t;
  }
  template <typename P>
  ProbeResult probe() {
    SnapshotHost host(snapshot);
    return P().run(host);
  }
  void meminfo() {
    file("/proc/meminfo", "MemTotal:       65536000 kB\nMemAvailable:   60000000 kB\n");
  }
  void pci(const std::string& address, const std::string& vendor, const std::string& device,
           const std::string& cls, const std::string& driver, const std::string& revision = "") {
    const std::string dev = "/sys/bus/pci/devices/" + address;
    file(dev + "/vendor", vendor + "\n");
    file(dev + "/device", device + "\n");
    file(dev + "/class", cls + "\n");
    if (!revision.empty()) file(dev + "/revision", revision + "\n");
    if (!driver.empty()) link(dev + "/driver", "../../../bus/pci/drivers/" + driver);
  }
  // /sys/class/accel/accelN -> the PCI function, like the kernel lays it out.
  void accel(int n, const std::string& address, const std::string& vendor,
             const std::string& device, const std::string& driver,
             const std::string& revision = "") {
    pci(address, vendor, device, "0x120000", driver, revision);
    const std::string cls = "/sys/class/accel/accel" + std::to_string(n);
    link(cls + "/device", "../../../bus/pci/devices/" + address);
    snapshot.files["/sys/class/accel"] = FileEntry::of_dir({"accel" + std::to_string(n)});
  }
};

// ---------- Intel NPU ----------

TEST(IntelNpuProbe, MeteorLakeReady) {
  HostBuilder b;
  b.meminfo();
  b.accel(0, "0000:00:0b.0", "0x8086", "0x7d1d", "intel_vpu", "0x04");
  b.node("/dev/accel/accel0");
  b.tool({"test", "-r", "/dev/accel/accel0", "-a", "-w", "/dev/accel/accel0"}, 0, "");
  auto r = b.probe<IntelNpuProbe>();
  ASSERT_TRUE(r.backend.ready) << (r.backend.reason ? r.backend.reason->detail : "");
  ASSERT_EQ(r.entries.size(), 1u);
  const auto& e = r.entries[0];
  EXPECT_EQ(e.name, "Intel AI Boost NPU (Meteor Lake) [NPU 3720]");
  EXPECT_EQ(e.physical_id, "pci:0000:00:0b.0");
  EXPECT_EQ(e.type, DeviceType::npu);
  EXPECT_EQ(e.compute_class, "npu3720");
  EXPECT_EQ(e.memory.kind, MemoryKind::unified);
  EXPECT_EQ(e.memory.total_bytes, 65536000ull * 1024);
}

TEST(IntelNpuProbe, UnreadableNodeIsPermissionDenied) {
  HostBuilder b;
  b.meminfo();
  b.accel(0, "0000:00:0b.0", "0x8086", "0x643e", "intel_vpu");
  b.error("/dev/accel/accel0", EACCES);
  auto r = b.probe<IntelNpuProbe>();
  EXPECT_FALSE(r.backend.ready);
  ASSERT_TRUE(r.backend.reason);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::permission_denied);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].compute_class, "npu4000");
  EXPECT_EQ(r.entries[0].status, EntryStatus::unavailable);
}

TEST(IntelNpuProbe, NodeThisUserMayNotOpen) {
  HostBuilder b;
  b.accel(0, "0000:00:0b.0", "0x8086", "0x7d1d", "intel_vpu");
  b.node("/dev/accel/accel0");
  b.tool({"test", "-r", "/dev/accel/accel0", "-a", "-w", "/dev/accel/accel0"}, 1, "");
  auto r = b.probe<IntelNpuProbe>();
  ASSERT_TRUE(r.backend.reason);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::permission_denied);
}

TEST(IntelNpuProbe, OnTheBusWithoutItsDriver) {
  HostBuilder b;
  b.pci("0000:00:0b.0", "0x8086", "0x7d1d", "0x120000", "");
  b.pci("0000:00:02.0", "0x8086", "0x7d55", "0x030000", "i915");  // the iGPU: not ours
  auto r = b.probe<IntelNpuProbe>();
  ASSERT_TRUE(r.backend.reason);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::driver_not_found);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_NE(r.entries[0].reason->detail.find("intel_vpu expected"), std::string::npos);
}

TEST(IntelNpuProbe, NothingIsNoDevice) {
  HostBuilder b;
  auto r = b.probe<IntelNpuProbe>();
  ASSERT_TRUE(r.backend.reason);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::no_device);
  EXPECT_TRUE(r.warnings.empty());
}

// ---------- AMD XDNA ----------

TEST(AmdXdnaProbe, StrixPointByRevision) {
  HostBuilder b;
  b.meminfo();
  b.accel(0, "0000:c6:00.1", "0x1022", "0x17f0", "amdxdna", "0x10");
  b.node("/dev/accel/accel0");
  auto r = b.probe<AmdXdnaProbe>();  // no `test` in the snapshot: access unknown, not refused
  ASSERT_TRUE(r.backend.ready);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].compute_class, "xdna2-npu4");
  EXPECT_EQ(r.entries[0].vendor, "AMD");
}

TEST(AmdXdnaProbe, IgnoresTheIntelNpu) {
  HostBuilder b;
  b.accel(0, "0000:00:0b.0", "0x8086", "0x7d1d", "intel_vpu");
  b.node("/dev/accel/accel0");
  auto r = b.probe<AmdXdnaProbe>();
  EXPECT_TRUE(r.entries.empty());
  EXPECT_EQ(r.backend.reason->code, ReasonCode::no_device);
}

// ---------- Vulkan ----------

const std::vector<std::string> kVulkaninfo = {"vulkaninfo", "--summary"};

TEST(VulkanProbe, NoDriverIsDriverNotFound) {
  HostBuilder b;
  b.tool(kVulkaninfo, 1, "",
         "ERROR: [Loader Message] Code 0 : vkCreateInstance: Found no drivers!\nCannot create "
         "Vulkan instance.\n");
  auto r = b.probe<VulkanProbe>();
  ASSERT_TRUE(r.backend.reason);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::driver_not_found);
  EXPECT_TRUE(r.entries.empty());
}

TEST(VulkanProbe, ToolMissing) {
  HostBuilder b;
  auto r = b.probe<VulkanProbe>();
  EXPECT_EQ(r.backend.reason->code, ReasonCode::tool_not_found);
}

TEST(VulkanProbe, LlvmpipeOnlyIsNoBackend) {
  HostBuilder b;
  b.tool(kVulkaninfo, 0,
         "Devices:\n========\nGPU0:\n\tapiVersion         = 1.3.230\n\tdriverVersion      = "
         "0.0.1\n\tvendorID           = 0x10005\n\tdeviceID           = 0x0000\n\tdeviceType       "
         "  = PHYSICAL_DEVICE_TYPE_CPU\n\tdeviceName         = llvmpipe (LLVM 15.0.6, 256 "
         "bits)\n\tdriverID           = DRIVER_ID_MESA_LLVMPIPE\n\tdriverName         = "
         "llvmpipe\n\tdriverInfo         = Mesa 22.3.6 (LLVM 15.0.6)\n");
  auto r = b.probe<VulkanProbe>();
  EXPECT_FALSE(r.backend.ready);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::no_backend);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].reason->code, ReasonCode::no_backend);
  EXPECT_EQ(r.entries[0].physical_id, "cpu:0");
  EXPECT_EQ(r.entries[0].type, DeviceType::cpu);
  EXPECT_FALSE(r.entries[0].pci_vendor_id);  // 0x10005 is no PCI vendor
}

TEST(VulkanProbe, RadvSharesThePciAddressOfItsUuid) {
  HostBuilder b;
  b.pci("0000:0c:00.0", "0x1002", "0x73df", "0x030000", "amdgpu");
  b.tool(kVulkaninfo, 0,
         "Devices:\n========\nGPU0:\n\tapiVersion = 1.4.328\n\tvendorID = 0x1002\n\tdeviceID = "
         "0x73df\n\tdeviceType = PHYSICAL_DEVICE_TYPE_DISCRETE_GPU\n\tdeviceName = AMD Radeon RX "
         "6700 XT (RADV NAVI22)\n\tdriverID = DRIVER_ID_MESA_RADV\n\tdriverInfo = Mesa 25.3.5\n"
         "\tdeviceUUID = 00000000-0c00-0000-0000-000000000000\n");
  auto r = b.probe<VulkanProbe>();
  ASSERT_TRUE(r.backend.ready);
  EXPECT_EQ(r.entries[0].physical_id, "pci:0000:0c:00.0");
  EXPECT_EQ(r.entries[0].driver_version, "Mesa 25.3.5");
  EXPECT_EQ(r.entries[0].compute_class, "vulkan-1.4.328");
  for (const auto& p : r.entries[0].provenance)  // the schema's provenance kinds
    EXPECT_TRUE(p.rfind("tool:", 0) == 0 || p.rfind("file:", 0) == 0) << p;
}

TEST(VulkanProbe, NvidiaJoinsItsCudaEntryByUuid) {
  HostBuilder b;
  // Two identical GPUs: the bus alone cannot tell which is which.
  b.pci("0000:1b:00.0", "0x10de", "0x2330", "0x030200", "nvidia");
  b.pci("0000:43:00.0", "0x10de", "0x2330", "0x030200", "nvidia");
  b.tool({"nvidia-smi",
          "--query-gpu=index,uuid,pci.bus_id,name,memory.total,memory.used,memory.free,compute_cap,"
          "driver_version",
          "--format=csv"},
         0,
         "index, uuid, pci.bus_id, name, memory.total [MiB], memory.used [MiB], memory.free [MiB], "
         "compute_cap, driver_version\n"
         "0, GPU-8e0b1c2d-0000-4000-8000-000000000001, 00000000:1B:00.0, NVIDIA H100 80GB HBM3, "
         "81559 MiB, 0 MiB, 81007 MiB, 9.0, 550.54.15\n"
         "1, GPU-8e0b1c2d-0000-4000-8000-000000000002, 00000000:43:00.0, NVIDIA H100 80GB HBM3, "
         "81559 MiB, 0 MiB, 81007 MiB, 9.0, 550.54.15\n");
  b.tool(kVulkaninfo, 0,
         "Devices:\n========\nGPU0:\n\tvendorID = 0x10de\n\tdeviceID = 0x2330\n\tdeviceType = "
         "PHYSICAL_DEVICE_TYPE_DISCRETE_GPU\n\tdeviceName = NVIDIA H100 80GB HBM3\n\tdeviceUUID = "
         "8e0b1c2d-0000-4000-8000-000000000002\n");
  SnapshotHost host(b.snapshot);
  DetectOptions only;
  only.only = {"cuda", "vulkan"};
  auto d = detect(host, only);
  const Entry* vk = nullptr;
  for (const auto& e : d.entries)
    if (e.backend == "vulkan") vk = &e;
  ASSERT_NE(vk, nullptr);
  EXPECT_EQ(vk->uuid, "GPU-8e0b1c2d-0000-4000-8000-000000000002");
  EXPECT_EQ(vk->physical_id, "pci:0000:43:00.0");
}

// ---------- Apple ----------

TEST(AppleProbe, LinuxWithoutAppleDeviceTreeIsNoDevice) {
  HostBuilder b;
  auto r = b.probe<AppleProbe>();
  EXPECT_EQ(r.backend.reason->code, ReasonCode::no_device);
  EXPECT_TRUE(r.entries.empty());
}

TEST(AppleProbe, MacGpuAndNeuralEngine) {
  HostBuilder b;
  b.snapshot.facts.os = "darwin";
  b.snapshot.facts.arch = "arm64";
  b.tool({"system_profiler", "SPDisplaysDataType", "-json"}, 0,
         R"({"SPDisplaysDataType":[{"_name":"Apple M2 Ultra","spdisplays_mtlgpufamilysupport":)"
         R"("spdisplays_metal3","spdisplays_vendor":"sppci_vendor_Apple","sppci_bus":)"
         R"("spdisplays_builtin","sppci_cores":"76","sppci_model":"Apple M2 Ultra"}]})");
  b.tool({"sysctl", "-n", "hw.memsize"}, 0, "206158430208\n");
  b.tool({"sysctl", "-n", "machdep.cpu.brand_string"}, 0, "Apple M2 Ultra\n");
  b.tool({"sysctl", "-n", "iogpu.wired_limit_mb"}, 0, "0\n");
  auto r = b.probe<AppleProbe>();
  ASSERT_TRUE(r.backend.ready);
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].name, "Apple M2 Ultra (76-core GPU)");
  EXPECT_EQ(r.entries[0].memory.total_bytes, 192 * kGiB);
  EXPECT_EQ(r.entries[0].memory.working_set_limit_bytes, 144 * kGiB);
  EXPECT_EQ(r.entries[0].compute_class, "metal3");
  EXPECT_EQ(r.entries[1].type, DeviceType::npu);
  EXPECT_EQ(r.entries[1].name, "Apple M2 Ultra Neural Engine (32-core)");
  EXPECT_NE(r.entries[0].physical_id, r.entries[1].physical_id);
}

TEST(AppleProbe, AsahiWithoutGpuDriver) {
  HostBuilder b;
  b.snapshot.facts.arch = "aarch64";
  b.file("/proc/device-tree/compatible",
         std::string("apple,j314s\0apple,t6000\0apple,arm-platform\0", 43));
  auto r = b.probe<AppleProbe>();
  EXPECT_FALSE(r.backend.ready);
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].name, "Apple M1 Pro GPU");
  EXPECT_EQ(r.entries[0].reason->code, ReasonCode::driver_not_found);
}

// ---------- oneAPI ----------

TEST(OneapiProbe, IntegratedMeteorLakeGpu) {
  HostBuilder b;
  b.meminfo();
  b.pci("0000:00:02.0", "0x8086", "0x7d55", "0x030000", "i915");
  b.link("/sys/class/drm/card0/device", "../../../bus/pci/devices/0000:00:02.0");
  auto r = b.probe<OneapiProbe>();
  ASSERT_TRUE(r.backend.ready);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].name, "Intel Arc Graphics (Meteor Lake)");
  EXPECT_EQ(r.entries[0].memory.kind, MemoryKind::unified);
  EXPECT_EQ(r.entries[0].physical_id, "pci:0000:00:02.0");
}

TEST(OneapiProbe, XeTilesGiveLocalMemory) {
  HostBuilder b;
  b.pci("0000:29:00.0", "0x8086", "0x0bd5", "0x038000", "xe");
  b.link("/sys/class/drm/card1/device", "../../../bus/pci/devices/0000:29:00.0");
  b.file("/sys/bus/pci/devices/0000:29:00.0/tile0/physical_vram_size_bytes", "68719476736\n");
  b.file("/sys/bus/pci/devices/0000:29:00.0/tile1/physical_vram_size_bytes", "68719476736\n");
  b.tool({"xpu-smi", "discovery"}, 0,
         "| 0         | Device Name: Intel(R) Data Center GPU Max 1550  |\n"
         "|           | PCI BDF Address: 0000:29:00.0                    |\n");
  auto r = b.probe<OneapiProbe>();
  ASSERT_TRUE(r.backend.ready);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].memory.total_bytes, 128 * kGiB);
  EXPECT_EQ(r.entries[0].memory.kind, MemoryKind::discrete);
  EXPECT_EQ(r.entries[0].api, "xpu-smi");
  EXPECT_EQ(r.entries[0].name, "Intel Data Center GPU Max 1550");
}

TEST(OneapiProbe, ArcWithoutDriver) {
  HostBuilder b;
  b.pci("0000:03:00.0", "0x8086", "0x56a0", "0x030000", "");
  auto r = b.probe<OneapiProbe>();
  ASSERT_TRUE(r.backend.reason);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::driver_not_found);
  EXPECT_EQ(r.entries[0].name, "Intel Arc A770");
}

}  // namespace
}  // namespace hwaccel
