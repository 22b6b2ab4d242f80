#include "src/probe/cpu_probe.h"

#include <gtest/gtest.h>

#include "src/system/host_resources.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kKiB = 1024;

constexpr std::string_view kMeminfo =
    "MemTotal:       527988724 kB\n"
    "MemFree:        500000000 kB\n"
    "MemAvailable:   515000000 kB\n"
    "Buffers:          100000 kB\n"
    "Cached:          9000000 kB\n";

constexpr std::string_view kCpuinfo =
    "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Platinum 8480+\n"
    "flags\t\t: fpu sse sse2 avx avx2 avx512f\n\n";

std::string gb10_cpuinfo() {
  std::string text;
  for (int i = 0; i < 20; ++i)
    text += "processor\t: " + std::to_string(i) +
            "\nBogoMIPS\t: 2000.00\nFeatures\t: fp asimd sve sve2 bf16 i8mm\n"
            "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: " +
            (i < 10 ? "0xd85" : "0xd87") + "\nCPU revision\t: 1\n\n";
  return text;
}

TEST(CpuProbe, XeonHost) {
  testing::FakeHost host;
  host.files["/proc/cpuinfo"] = kCpuinfo;
  host.files["/proc/meminfo"] = kMeminfo;
  auto result = CpuProbe().run(host);

  EXPECT_EQ(result.backend.name, "cpu");
  EXPECT_TRUE(result.backend.ready);
  EXPECT_FALSE(result.backend.reason);
  EXPECT_TRUE(result.warnings.empty());
  ASSERT_EQ(result.entries.size(), 1u);
  const auto& cpu = result.entries[0];
  EXPECT_EQ(cpu.backend, "cpu");
  EXPECT_EQ(cpu.api, "host");
  EXPECT_EQ(cpu.index, 0);
  EXPECT_EQ(cpu.physical_id, "cpu:0");
  EXPECT_EQ(cpu.type, DeviceType::cpu);
  EXPECT_EQ(cpu.status, EntryStatus::ready);
  EXPECT_EQ(cpu.name, "Intel(R) Xeon(R) Platinum 8480+");
  EXPECT_EQ(cpu.vendor, "Intel");
  EXPECT_EQ(cpu.compute_class, "avx512");
  EXPECT_EQ(cpu.memory.kind, MemoryKind::host);
  EXPECT_EQ(cpu.memory.total_bytes, 527988724 * kKiB);
  EXPECT_EQ(cpu.memory.free_bytes, 515000000 * kKiB);
  EXPECT_EQ(cpu.memory.source, "/proc/meminfo");
  EXPECT_EQ(cpu.provenance, (std::vector<std::string>{"file:/proc/cpuinfo", "file:/proc/meminfo"}));
  EXPECT_TRUE(host.runs.empty());  // no tool is run for the CPU
}

TEST(CpuProbe, Gb10Host) {
  testing::FakeHost host;
  host.host_facts.arch = "aarch64";
  host.host_facts.cpus = 20;
  host.files["/proc/cpuinfo"] = gb10_cpuinfo();
  host.files["/proc/meminfo"] = "MemTotal:       125508468 kB\nMemAvailable:   120000000 kB\n";
  auto result = CpuProbe().run(host);
  ASSERT_EQ(result.entries.size(), 1u);
  const auto& cpu = result.entries[0];
  EXPECT_EQ(cpu.name, "Arm Cortex-X925 x10 + Cortex-A725 x10");
  EXPECT_EQ(cpu.vendor, "Arm");
  EXPECT_EQ(cpu.compute_class, "sve2");
  EXPECT_EQ(cpu.memory.total_bytes, 125508468 * kKiB);
  EXPECT_EQ(cpu.memory.free_bytes, 120000000 * kKiB);
  EXPECT_TRUE(result.warnings.empty());
}

TEST(CpuProbe, MissingFilesLeaveFieldsEmptyButTheCpuReady) {
  testing::FakeHost host;  // neither file exists
  auto result = CpuProbe().run(host);
  EXPECT_TRUE(result.backend.ready);
  ASSERT_EQ(result.entries.size(), 1u);
  const auto& cpu = result.entries[0];
  EXPECT_EQ(cpu.status, EntryStatus::ready);
  EXPECT_EQ(cpu.name, "");
  EXPECT_EQ(cpu.vendor, "");
  EXPECT_EQ(cpu.compute_class, "");
  EXPECT_FALSE(cpu.memory.total_bytes);
  EXPECT_FALSE(cpu.memory.free_bytes);
  EXPECT_EQ(
      result.warnings,
      (std::vector<Warning>{{"cpu", "cannot read /proc/cpuinfo (ENOENT); CPU name unknown"},
                            {"cpu", "cannot read /proc/meminfo (ENOENT); system memory unknown"}}));
}

// hwloc's gathers of some machines (16amd64-8n2c) have no /proc/meminfo, only
// the NUMA nodes' meminfo: cpu:0 has the same total as the system scan.
TEST(CpuProbe, MemoryFromNumaNodesWithoutProcMeminfo) {
  testing::FakeHost host;
  host.files["/proc/cpuinfo"] = kCpuinfo;
  host.files["/sys/devices/system/cpu/online"] = "0-3\n";
  host.files["/sys/devices/system/node/node0/meminfo"] = "Node 0 MemTotal:      8386704 kB\n";
  host.files["/sys/devices/system/node/node1/meminfo"] = "Node 1 MemTotal:      8388608 kB\n";
  auto result = CpuProbe().run(host);
  EXPECT_TRUE(result.warnings.empty()) << result.warnings.front().message;
  const auto& cpu = result.entries[0];
  ASSERT_TRUE(cpu.memory.total_bytes);
  EXPECT_EQ(*cpu.memory.total_bytes, (8386704 + 8388608) * kKiB);
  EXPECT_FALSE(cpu.memory.free_bytes);
  EXPECT_NE(cpu.memory.source.find("sum of 2"), std::string::npos) << cpu.memory.source;
  EXPECT_EQ(cpu.provenance.back(), "file:/sys/devices/system/node");

  host.files["/proc/meminfo"] = "MemFree: 100 kB\n";  // there, but without MemTotal
  auto again = CpuProbe().run(host);
  EXPECT_EQ(again.entries[0].memory.total_bytes, (8386704 + 8388608) * kKiB);
}

TEST(CpuProbe, UnreadableFilesNameTheErrno) {
  testing::FakeHost host;
  host.errors["/proc/cpuinfo"] = EACCES;
  host.files["/proc/meminfo"] = kMeminfo;
  auto result = CpuProbe().run(host);
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_EQ(result.warnings[0].message, "cannot read /proc/cpuinfo (EACCES); CPU name unknown");
  EXPECT_EQ(result.entries[0].memory.total_bytes, 527988724 * kKiB);
}

TEST(CpuProbe, OldKernelWithoutMemAvailableWarns) {
  testing::FakeHost host;
  host.files["/proc/cpuinfo"] = kCpuinfo;
  host.files["/proc/meminfo"] =
      "MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 20 kB\nCached: 300 kB\n";
  auto result = CpuProbe().run(host);
  EXPECT_EQ(result.entries[0].memory.free_bytes, 420 * kKiB);
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_EQ(result.warnings[0].backend, "cpu");
  EXPECT_NE(result.warnings[0].message.find("no MemAvailable in /proc/meminfo"), std::string::npos);
}

TEST(CpuProbe, FilesWithoutTheFiguresWarn) {
  testing::FakeHost host;
  host.files["/proc/cpuinfo"] = "garbage\n";
  host.files["/proc/meminfo"] = "";
  auto result = CpuProbe().run(host);
  EXPECT_TRUE(result.backend.ready);
  EXPECT_EQ(result.warnings, (std::vector<Warning>{{"cpu", "no CPU name found in /proc/cpuinfo"},
                                                   {"cpu", "no MemTotal in /proc/meminfo"}}));
}

// detect() scans the host's resources once and lends them to the probe (issue 37):
// the lent figures are the ones used, the host's cgroup files are not read again.
TEST(CpuProbe, UsesTheResourcesADetectionLendsIt) {
  testing::FakeHost host;
  host.files["/proc/cpuinfo"] = kCpuinfo;
  host.files["/proc/meminfo"] = kMeminfo;
  HostResources lent;
  lent.usable_memory_bytes = 64 * kKiB * kKiB * kKiB;
  lent.cgroup.version = 2;
  CpuProbe probe;
  probe.share_resources(&lent);
  auto result = probe.run(host);
  ASSERT_EQ(result.entries.size(), 1u);
  const auto& cpu = result.entries[0];
  EXPECT_EQ(cpu.memory.total_bytes, 527988724 * kKiB);
  EXPECT_EQ(cpu.memory.working_set_limit_bytes, lent.usable_memory_bytes);
  EXPECT_EQ(cpu.memory.free_bytes, lent.usable_memory_bytes);
  EXPECT_EQ(cpu.memory.source, "/proc/meminfo (cgroup v2 limit)");

  // Lent nothing, the probe scans this host itself: no cgroup, no limit.
  probe.share_resources(nullptr);
  auto own = probe.run(host);
  ASSERT_EQ(own.entries.size(), 1u);
  EXPECT_FALSE(own.entries[0].memory.working_set_limit_bytes);
  EXPECT_EQ(own.entries[0].memory.source, "/proc/meminfo");
}

}  // namespace
}  // namespace hwaccel
