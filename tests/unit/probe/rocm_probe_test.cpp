#include "src/probe/rocm_probe.h"

#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "src/snapshot/snapshot.h"
#include "src/vocabulary/text_util.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

// A host built file by file, links included (FakeHost has none), replayed
// through the real SnapshotHost.
struct HostBuilder {
  Snapshot snapshot;
  void file(const std::string& path, std::string content) {
    snapshot.files[path] = FileEntry::of_content(std::move(content));
  }
  void link(const std::string& path, std::string target) {
    snapshot.files[path] = FileEntry::of_link(std::move(target));
  }
  void error(const std::string& path, int code) {
    snapshot.files[path] = FileEntry::of_error(code);
  }
  ProbeResult probe() {
    SnapshotHost host(snapshot);
    return RocmProbe().run(host);
  }
};

struct Gpu {
  int card = 0;
  std::string address;  // "0000:0c:00.0"
  std::string device_id = "0x74a1";
  std::uint64_t vram_total = 205822885888;
  std::uint64_t vram_used = 299687936;
  std::uint64_t gtt_total = 1623910637568;
  std::string class_code = "0x120000";
  std::string driver = "amdgpu";  // "" for none
  int kfd_node = 1;               // -1: no KFD node
  std::uint32_t gfx = 90402;
  int numa = 0;
};

void pci_device(HostBuilder& b, const Gpu& g) {
  const std::string dev = "/sys/bus/pci/devices/" + g.address;
  b.file(dev + "/vendor", "0x1002\n");
  b.file(dev + "/device", g.device_id + "\n");
  b.file(dev + "/class", g.class_code + "\n");
  b.file(dev + "/numa_node", std::to_string(g.numa) + "\n");
  if (!g.driver.empty()) b.link(dev + "/driver", "../../../../bus/pci/drivers/" + g.driver);
}

std::uint32_t location_id(const std::string& address, std::uint32_t partition = 0) {
  return std::uint32_t(*parse_hex(address.substr(5, 2))) << 8 | partition;
}

void kfd_node(HostBuilder& b, int node, const Gpu& g, int render_minor, std::uint32_t partition = 0,
              std::uint32_t simd = 1216) {
  b.file("/sys/class/kfd/kfd/topology/nodes/" + std::to_string(node) + "/properties",
         "cpu_cores_count 0\nsimd_count " + std::to_string(simd) +
             "\nmem_banks_count 1\ngfx_target_version " + std::to_string(g.gfx) +
             "\nvendor_id 4098\ndevice_id " + std::to_string(*parse_hex(g.device_id)) +
             "\nlocation_id " + std::to_string(location_id(g.address, partition)) +
             "\ndomain 0\ndrm_render_minor " + std::to_string(render_minor) + "\n");
}

void cpu_node(HostBuilder& b) {
  b.file("/sys/class/kfd/kfd/topology/nodes/0/properties",
         "cpu_cores_count 96\nsimd_count 0\nmem_banks_count 1\ngfx_target_version 0\n"
         "vendor_id 0\ndevice_id 0\nlocation_id 0\ndomain 0\ndrm_render_minor 0\n");
}

// A GPU with amdgpu bound: its PCI folder, its DRM card and its KFD node.
void amdgpu(HostBuilder& b, const Gpu& g) {
  pci_device(b, g);
  const std::string dev = "/sys/bus/pci/devices/" + g.address;
  const std::string card = "card" + std::to_string(g.card);
  b.link("/sys/class/drm/" + card + "/device", "../../../bus/pci/devices/" + g.address);
  b.file(dev + "/drm/" + card + "/dev", "226:" + std::to_string(g.card) + "\n");
  b.file(dev + "/drm/renderD" + std::to_string(128 + g.card) + "/dev",
         "226:" + std::to_string(128 + g.card) + "\n");
  b.file(dev + "/mem_info_vram_total", std::to_string(g.vram_total) + "\n");
  b.file(dev + "/mem_info_vram_used", std::to_string(g.vram_used) + "\n");
  b.file(dev + "/mem_info_gtt_total", std::to_string(g.gtt_total) + "\n");
  b.file(dev + "/local_cpulist", "0-95,192-287\n");
  if (g.kfd_node >= 0) kfd_node(b, g.kfd_node, g, 128 + g.card);
}

TEST(RocmProbe, NoAmdAnywhereIsNoDevice) {
  HostBuilder b;
  b.file("/sys/bus/pci/devices/0000:01:00.0/vendor", "0x10de\n");
  b.file("/sys/bus/pci/devices/0000:01:00.0/device", "0x2684\n");
  b.file("/sys/bus/pci/devices/0000:01:00.0/class", "0x030000\n");
  auto r = b.probe();
  EXPECT_EQ(r.backend.name, "rocm");
  EXPECT_FALSE(r.backend.ready);
  ASSERT_TRUE(r.backend.reason);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::no_device);
  EXPECT_EQ(r.backend.reason->detail, "no AMD GPU on the PCI bus");
  EXPECT_TRUE(r.entries.empty());
  EXPECT_TRUE(r.warnings.empty());
}

TEST(RocmProbe, OneMi300xWithItsMemoryAndGfxTarget) {
  HostBuilder b;
  cpu_node(b);
  amdgpu(b, {.card = 0, .address = "0000:0c:00.0", .kfd_node = 1});
  b.file("/sys/class/drm/card0-DP-1/status", "disconnected\n");  // a connector: not a card
  auto r = b.probe();
  ASSERT_TRUE(r.backend.ready) << (r.backend.reason ? r.backend.reason->detail : "");
  ASSERT_EQ(r.entries.size(), 1u);
  const Entry& e = r.entries[0];
  EXPECT_EQ(e.backend, "rocm");
  EXPECT_EQ(e.api, "sysfs");
  EXPECT_EQ(e.index, 0);
  EXPECT_EQ(e.physical_id, "pci:0000:0c:00.0");
  EXPECT_EQ(e.pci_bus_id, "0000:0c:00.0");
  EXPECT_EQ(e.pci_vendor_id, 0x1002);
  EXPECT_EQ(e.pci_device_id, 0x74a1);
  EXPECT_EQ(e.name, "AMD Instinct MI300X");  // no product_name: from the catalogue
  EXPECT_EQ(e.vendor, "AMD");
  EXPECT_EQ(e.type, DeviceType::gpu);
  EXPECT_EQ(e.memory.kind, MemoryKind::discrete);
  EXPECT_EQ(e.memory.total_bytes, 205822885888u);
  EXPECT_EQ(e.memory.free_bytes, 205822885888u - 299687936u);
  EXPECT_EQ(e.memory.source, "sysfs mem_info_vram_total, mem_info_vram_used");
  EXPECT_EQ(e.compute_class, "gfx942");
  EXPECT_EQ(e.status, EntryStatus::ready);
  EXPECT_EQ(e.numa_node, 0);
  EXPECT_EQ(e.cpu_affinity, "0-95,192-287");
  EXPECT_FALSE(e.partitioned);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings[0].message;
}

TEST(RocmProbe, ProductNameWinsOverTheCatalogue) {
  HostBuilder b;
  amdgpu(b, {.card = 0, .address = "0000:0c:00.0", .kfd_node = 1});
  b.file("/sys/bus/pci/devices/0000:0c:00.0/product_name", "AMD Instinct MI300X OAM\n");
  auto r = b.probe();
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].name, "AMD Instinct MI300X OAM");
}

TEST(RocmProbe, Mi250xIsTwoDevicesPerPackage) {
  // One MI250X OAM package = two GCDs, each its own PCI function, DRM card and KFD node.
  HostBuilder b;
  cpu_node(b);
  Gpu gcd0{.card = 0,
           .address = "0000:c1:00.0",
           .device_id = "0x740c",
           .vram_total = 68702699520,
           .vram_used = 11321344,
           .class_code = "0x038000",
           .kfd_node = 1,
           .gfx = 90010};
  Gpu gcd1 = gcd0;
  gcd1.card = 1;
  gcd1.address = "0000:c6:00.0";
  gcd1.kfd_node = 2;
  amdgpu(b, gcd0);
  amdgpu(b, gcd1);
  auto r = b.probe();
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].physical_id, "pci:0000:c1:00.0");
  EXPECT_EQ(r.entries[1].physical_id, "pci:0000:c6:00.0");
  EXPECT_EQ(r.entries[1].index, 1);
  for (const auto& e : r.entries) {
    EXPECT_EQ(e.name, "AMD Instinct MI250X/MI250");
    EXPECT_EQ(e.compute_class, "gfx90a");
    EXPECT_EQ(e.memory.total_bytes, 68702699520u);  // 64 GiB per GCD, not 128 per package
    EXPECT_EQ(e.status, EntryStatus::ready);
  }
}

TEST(RocmProbe, CardsAreTakenInNumericOrder) {
  HostBuilder b;
  for (int card : {0, 1, 2, 10}) {
    char address[16];
    std::snprintf(address, sizeof address, "0000:%02x:00.0", 0x10 + card);
    amdgpu(b, {.card = card, .address = address, .kfd_node = card + 1});
  }
  auto r = b.probe();
  ASSERT_EQ(r.entries.size(), 4u);
  EXPECT_EQ(r.entries[2].pci_bus_id, "0000:12:00.0");
  EXPECT_EQ(r.entries[3].pci_bus_id, "0000:1a:00.0");
}

TEST(RocmProbe, StrixHaloIsUnifiedMemoryFromGttAndMemAvailable) {
  HostBuilder b;
  cpu_node(b);
  // fixtures/real/README.md: VRAM 4294967296, GTT 103079215104 (96 GiB).
  amdgpu(b, {.card = 1,
             .address = "0000:c5:00.0",
             .device_id = "0x1586",
             .vram_total = 4294967296,
             .vram_used = 181092352,
             .gtt_total = 103079215104,
             .class_code = "0x038000",
             .kfd_node = 1,
             .gfx = 110501});
  b.file("/proc/meminfo", "MemTotal:       128000000 kB\nMemAvailable:   120000000 kB\n");
  auto r = b.probe();
  ASSERT_EQ(r.entries.size(), 1u);
  const Entry& e = r.entries[0];
  EXPECT_EQ(e.name, "AMD Radeon 8050S/8060S Graphics (Strix Halo)");
  EXPECT_EQ(e.compute_class, "gfx1151");
  EXPECT_EQ(e.memory.kind, MemoryKind::unified);
  EXPECT_EQ(e.memory.total_bytes, 96 * kGiB);
  EXPECT_EQ(e.memory.free_bytes, 96 * kGiB);  // 114.4 GiB available, capped at the GTT
  EXPECT_EQ(e.memory.source,
            "sysfs mem_info_gtt_total (GPU-visible system memory); free: /proc/meminfo "
            "MemAvailable capped at the GTT size");

  b.file("/proc/meminfo", "MemTotal:       128000000 kB\nMemAvailable:   50000000 kB\n");
  EXPECT_EQ(b.probe().entries[0].memory.free_bytes, 50000000ull * 1024);
}

TEST(RocmProbe, ApuWithoutMeminfoWarns) {
  HostBuilder b;
  amdgpu(b, {.card = 0,
             .address = "0000:c5:00.0",
             .device_id = "0x15bf",
             .vram_total = 536870912,
             .gtt_total = 16 * kGiB,
             .class_code = "0x030000",
             .kfd_node = 1,
             .gfx = 110003});
  b.error("/proc/meminfo", EACCES);
  auto r = b.probe();
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].name, "AMD Radeon 760M/780M Graphics (Phoenix1)");
  EXPECT_EQ(r.entries[0].memory.total_bytes, 16 * kGiB);
  EXPECT_FALSE(r.entries[0].memory.free_bytes);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].message.find("EACCES"), std::string::npos) << r.warnings[0].message;
}

TEST(RocmProbe, AnAmdGpuWithoutDriverIsDriverNotFound) {
  HostBuilder b;
  pci_device(b, {.address = "0000:0c:00.0", .driver = ""});
  // The HD audio function beside a GPU does not count.
  b.file("/sys/bus/pci/devices/0000:0c:00.1/vendor", "0x1002\n");
  b.file("/sys/bus/pci/devices/0000:0c:00.1/device", "0x1640\n");
  b.file("/sys/bus/pci/devices/0000:0c:00.1/class", "0x040300\n");
  auto r = b.probe();
  ASSERT_EQ(r.entries.size(), 1u);
  const Entry& e = r.entries[0];
  EXPECT_EQ(e.status, EntryStatus::unavailable);
  ASSERT_TRUE(e.reason);
  EXPECT_EQ(e.reason->code, ReasonCode::driver_not_found);
  EXPECT_EQ(e.reason->detail, "0000:0c:00.0: no driver bound");
  EXPECT_EQ(e.name, "AMD Instinct MI300X");
  EXPECT_EQ(e.physical_id, "pci:0000:0c:00.0");
  EXPECT_FALSE(e.memory.total_bytes);
  EXPECT_FALSE(r.backend.ready);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::driver_not_found);
  EXPECT_EQ(r.backend.reason->detail, "0000:0c:00.0: no driver bound");
}

TEST(RocmProbe, AGpuHandedToVfioIsNamedWithItsDriver) {
  HostBuilder b;
  pci_device(b, {.address = "0000:0c:00.0", .driver = "vfio-pci"});
  pci_device(b, {.address = "0000:22:00.0", .driver = "vfio-pci"});
  auto r = b.probe();
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[1].reason->detail, "0000:22:00.0: bound to vfio-pci");
  EXPECT_EQ(r.entries[1].index, 1);
  EXPECT_EQ(r.backend.reason->detail, "2 AMD GPUs, none usable; 0000:0c:00.0: bound to vfio-pci");
}

TEST(RocmProbe, ReadyIfAnyIsReady) {
  HostBuilder b;
  amdgpu(b, {.card = 0, .address = "0000:0c:00.0", .kfd_node = 1});
  pci_device(b, {.address = "0000:22:00.0", .driver = "vfio-pci"});
  auto r = b.probe();
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_TRUE(r.backend.ready);
  EXPECT_EQ(r.entries[0].status, EntryStatus::ready);
  EXPECT_EQ(r.entries[1].status, EntryStatus::unavailable);
}

TEST(RocmProbe, AmdgpuWithoutKfdIsNotUsableByRocm) {
  HostBuilder b;
  amdgpu(b, {.card = 0, .address = "0000:0c:00.0", .kfd_node = -1});
  auto r = b.probe();
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].status, EntryStatus::unavailable);
  EXPECT_EQ(r.entries[0].reason->code, ReasonCode::driver_not_found);
  EXPECT_EQ(r.entries[0].memory.total_bytes, 205822885888u);  // amdgpu still tells the memory
  EXPECT_EQ(r.entries[0].compute_class, "");
}

TEST(RocmProbe, KfdMatchesByLocationWhenTheRenderNodeIsUnknown) {
  HostBuilder b;
  Gpu g{.card = 0, .address = "0000:0c:00.0", .kfd_node = -1};
  amdgpu(b, g);
  b.snapshot.files.erase("/sys/bus/pci/devices/0000:0c:00.0/drm/renderD128/dev");
  kfd_node(b, 1, g, 200);  // a render minor that matches nothing
  auto r = b.probe();
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].compute_class, "gfx942");
}

TEST(RocmProbe, Mi300xInCpxModeListsEightPartitionsTiedToTheParent) {
  HostBuilder b;
  cpu_node(b);
  Gpu g{.card = 0, .address = "0000:0c:00.0", .kfd_node = -1};
  amdgpu(b, g);
  const std::string dev = "/sys/bus/pci/devices/0000:0c:00.0";
  b.file(dev + "/current_compute_partition", "CPX\n");
  b.file(dev + "/current_memory_partition", "NPS4\n");
  // Partition k: KFD node k+1, location_id = pci_dev_id | k, its own render node.
  for (std::uint32_t k = 0; k < 8; ++k) {
    kfd_node(b, int(k) + 1, g, int(128 + k), k, 152);
    b.file("/sys/class/kfd/kfd/topology/nodes/" + std::to_string(k + 1) + "/mem_banks/0/properties",
           "heap_type 1\nsize_in_bytes 25727205376\nflags 0\n");
  }
  // The other seven partitions' DRM cards sit on amdgpu_xcp platform devices: skipped.
  for (int k = 1; k < 8; ++k)
    b.file("/sys/class/drm/card" + std::to_string(k) + "/device/uevent",
           "MODALIAS=platform:amdgpu_xcp_" + std::to_string(k - 1) + "\n");
  auto r = b.probe();
  ASSERT_EQ(r.entries.size(), 9u);
  const Entry& parent = r.entries[0];
  EXPECT_TRUE(parent.partitioned);
  EXPECT_EQ(parent.memory.total_bytes, 205822885888u);
  for (int k = 0; k < 8; ++k) {
    const Entry& p = r.entries[k + 1];
    EXPECT_EQ(p.index, k + 1);
    ASSERT_TRUE(p.partition);
    EXPECT_EQ(p.partition->profile, "CPX");
    EXPECT_EQ(p.partition->parent_physical_id, "pci:0000:0c:00.0");
    EXPECT_EQ(p.partition->parent_index, 0);
    EXPECT_EQ(p.physical_id, "pci:0000:0c:00.0/partition" + std::to_string(k));
    EXPECT_EQ(p.name, "AMD Instinct MI300X (CPX partition " + std::to_string(k) + ")");
    EXPECT_EQ(p.memory.total_bytes, 25727205376u);
    EXPECT_FALSE(p.memory.free_bytes);
    EXPECT_EQ(p.compute_class, "gfx942");
    EXPECT_EQ(p.status, EntryStatus::ready);
  }
  EXPECT_NE(r.entries[1].memory.source.find("NPS4"), std::string::npos);
}

TEST(RocmProbe, SpxModeIsOneDevice) {
  HostBuilder b;
  amdgpu(b, {.card = 0, .address = "0000:0c:00.0", .kfd_node = 1});
  b.file("/sys/bus/pci/devices/0000:0c:00.0/current_compute_partition", "SPX\n");
  b.file("/sys/bus/pci/devices/0000:0c:00.0/current_memory_partition", "NPS1\n");
  auto r = b.probe();
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_FALSE(r.entries[0].partitioned);
}

TEST(RocmProbe, UnreadableFilesAreWarningsNamedByErrno) {
  HostBuilder b;
  amdgpu(b, {.card = 0, .address = "0000:0c:00.0", .kfd_node = 1});
  b.error("/sys/bus/pci/devices/0000:0c:00.0/mem_info_vram_used", EACCES);
  b.file("/sys/bus/pci/devices/0000:0c:00.0/mem_info_vram_total", "garbage\n");
  auto r = b.probe();
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_FALSE(r.entries[0].memory.total_bytes);
  EXPECT_FALSE(r.entries[0].memory.free_bytes);
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_EQ(r.warnings[0].message,
            "/sys/class/drm/card0/device/mem_info_vram_total holds \"garbage\", not a number "
            "of bytes");
  EXPECT_NE(r.warnings[1].message.find("(EACCES)"), std::string::npos);
}

TEST(RocmProbe, UsedAboveTotalLeavesFreeUnknown) {
  HostBuilder b;
  amdgpu(
      b,
      {.card = 0, .address = "0000:0c:00.0", .vram_total = 100, .vram_used = 200, .kfd_node = 1});
  auto r = b.probe();
  EXPECT_FALSE(r.entries[0].memory.free_bytes);
  ASSERT_EQ(r.warnings.size(), 1u);
}

TEST(RocmProbe, GarbageEverywhereNeverCrashes) {
  HostBuilder b;
  for (const std::string junk :
       {"", "\x01\x02\xff", "0x", "-1", "99999999999999999999999", "card0\n", "SPX, CPX"}) {
    const std::string dev = "/sys/bus/pci/devices/0000:0c:00.0";
    b.link("/sys/class/drm/card0/device", "../../../bus/pci/devices/0000:0c:00.0");
    b.file(dev + "/vendor", "0x1002\n");
    for (const char* f : {"device", "class", "numa_node", "mem_info_vram_total",
                          "mem_info_vram_used", "mem_info_gtt_total", "product_name",
                          "current_compute_partition", "uevent", "local_cpulist"})
      b.file(dev + "/" + f, junk);
    b.file("/sys/class/kfd/kfd/topology/nodes/0/properties", junk);
    b.file("/sys/class/kfd/kfd/topology/nodes/x/properties", junk);
    b.file("/proc/meminfo", junk);
    auto r = b.probe();
    EXPECT_EQ(r.backend.name, "rocm");
    EXPECT_EQ(r.entries.size(), 1u);
  }
}

}  // namespace
}  // namespace hwaccel
