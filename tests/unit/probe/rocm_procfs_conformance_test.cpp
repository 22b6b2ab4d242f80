// Conformance over a real amdgpu tree: the Prometheus procfs test fixture in
// fixtures/real/procfs-fixtures.ttar has, under fixtures/sys/class/drm,
// card0 (an RX Vega 64 with amdgpu, 1002:687f at 0000:09:00.0) and card1 (an
// Intel i915 with its DP connectors). Its files are loaded as they are into a
// snapshot rooted at / and the ROCm probe is run on it.
#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "src/probe/rocm_probe.h"
#include "src/snapshot/snapshot.h"
#include "src/vocabulary/text_util.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

// Every entry of a ttar archive under `prefix`: "Path: P" + "Lines: N" + N lines
// is a file, "Path: P" + "SymlinkTo: T" a link; "Directory:" entries are implied.
void load_ttar(const std::string& archive, const std::string& prefix, const std::string& root,
               Snapshot& snapshot) {
  auto lines = split_lines(archive);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    if (line.substr(0, 6) != "Path: ") continue;
    std::string path(line.substr(6));
    if (path.rfind(prefix, 0) != 0 || i + 1 >= lines.size()) continue;
    const std::string target = root + path.substr(prefix.size());
    std::string_view next = lines[i + 1];
    if (next.substr(0, 11) == "SymlinkTo: ") {
      snapshot.files[target] = FileEntry::of_link(std::string(next.substr(11)));
      continue;
    }
    if (next.substr(0, 7) != "Lines: ") continue;
    auto count = parse_u64(next.substr(7));
    if (!count) continue;
    std::string content;
    for (std::uint64_t k = 0; k < *count && i + 2 + k < lines.size(); ++k)
      content += std::string(lines[i + 2 + k]) + "\n";
    snapshot.files[target] = FileEntry::of_content(std::move(content));
  }
}

TEST(RocmProcfsConformance, TheAmdgpuCardOfTheProcfsFixture) {
  auto archive = testing::slurp(testing::real_capture_path("procfs-fixtures.ttar"));
  if (!archive) GTEST_FAIL() << "real captures not found at " << testing::real_capture_path("");
  Snapshot snapshot;
  load_ttar(*archive, "fixtures/sys/class/drm/", "/sys/class/drm/", snapshot);
  ASSERT_TRUE(snapshot.files.count("/sys/class/drm/card0/device/mem_info_vram_total"))
      << "procfs-fixtures.ttar no longer has the amdgpu card0";
  SnapshotHost host(snapshot);
  auto r = RocmProbe().run(host);

  ASSERT_EQ(r.entries.size(), 1u);  // card1 is Intel (PCI_ID=8086:5917 in its uevent)
  const Entry& e = r.entries[0];
  EXPECT_EQ(e.pci_vendor_id, 0x1002);
  EXPECT_EQ(e.pci_device_id, 0x687f);
  // The folder is not a link in the archive: the address comes from PCI_SLOT_NAME.
  EXPECT_EQ(e.pci_bus_id, "0000:09:00.0");
  EXPECT_EQ(e.physical_id, "pci:0000:09:00.0");
  EXPECT_EQ(e.name, "AMD Radeon RX Vega 56/64 (Vega 10)");  // product_name is empty there
  EXPECT_EQ(e.memory.kind, MemoryKind::discrete);
  EXPECT_EQ(e.memory.total_bytes, 8573157376u);               // mem_info_vram_total
  EXPECT_EQ(e.memory.free_bytes, 8573157376u - 1490378752u);  // minus mem_info_vram_used
  EXPECT_FALSE(e.numa_node);                                  // numa_node -1
  EXPECT_EQ(e.cpu_affinity, "0-15");                          // local_cpulist
  // The archive has no /sys/class/kfd: amdgpu is bound, but ROCm's KFD is not shown.
  EXPECT_EQ(e.status, EntryStatus::unavailable);
  ASSERT_TRUE(e.reason);
  EXPECT_EQ(e.reason->code, ReasonCode::driver_not_found);
  EXPECT_EQ(e.reason->detail,
            "0000:09:00.0: amdgpu is bound but KFD, ROCm's compute interface, is not "
            "(/sys/class/kfd/kfd/topology/nodes: ENOENT)");
  EXPECT_TRUE(r.warnings.empty()) << r.warnings[0].message;
}

}  // namespace
}  // namespace hwaccel
