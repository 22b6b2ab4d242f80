// GPUs the kernel shows never vanish, and GPU memory onlined as NUMA nodes is
// not host memory. The POWER9 host below has the shape of a real IBM AC922
// (6x V100 SXM2 16GB joined to the CPUs by NVLink 2.0): the bus ids of its two
// sockets, /proc/driver/nvidia/gpus/<bus>/ holding only numa_status, the GPUs'
// memory as CPU-less nodes 250-255, PCI folders copied without vendor/device
// files, 252 GiB of host memory and 341.6 GiB in /proc/meminfo's MemTotal.
#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "src/probe/cpu_probe.h"
#include "src/probe/cuda_probe.h"
#include "src/probe/gpu_numa_memory.h"
#include "src/probe/nvidia_kernel_gpus.h"
#include "src/system/host_resources.h"
#include "tests/unit/probe/snapshot_builder.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kKiB = 1024;
const char* const kV100s[] = {"0004:04:00.0", "0004:05:00.0", "0004:06:00.0",
                              "0035:03:00.0", "0035:04:00.0", "0035:05:00.0"};
constexpr std::uint64_t kGpuNodeKiB = 15655360;  // 14.9 GiB of each V100 onlined
constexpr std::uint64_t kHostKiB = 264241152;    // 252 GiB: nodes 0 and 8

std::string node_meminfo(int node, std::uint64_t total_kib, std::uint64_t free_kib) {
  const std::string n = "Node " + std::to_string(node) + " ";
  return n + "MemTotal:       " + std::to_string(total_kib) + " kB\n" + n +
         "MemFree:        " + std::to_string(free_kib) + " kB\n" + n +
         "MemUsed:        " + std::to_string(total_kib - free_kib) + " kB\n";
}

testing::SnapshotBuilder power9_host() {
  testing::SnapshotBuilder b;
  b.snapshot.facts.arch = "ppc64le";
  const std::uint64_t total = kHostKiB + 6 * kGpuNodeKiB;
  b.file("/proc/meminfo", "MemTotal:       " + std::to_string(total) +
                              " kB\nMemFree:        300000000 kB\nMemAvailable:   310000000 kB\n");
  b.file("/proc/cpuinfo", "processor\t: 0\ncpu\t\t: POWER9, altivec supported\n");
  b.file("/sys/devices/system/node/node0/meminfo", node_meminfo(0, kHostKiB / 2, 120000000));
  b.file("/sys/devices/system/node/node8/meminfo", node_meminfo(8, kHostKiB / 2, 120000000));
  for (int i = 0; i < 6; ++i) {
    const std::string bus = kV100s[i];
    const int node = 250 + i;
    // hwloc-gather-topology's copy of the function: class and NUMA node only.
    b.file("/sys/bus/pci/devices/" + bus + "/class", "0x030200\n");
    b.file("/sys/bus/pci/devices/" + bus + "/numa_node", i < 3 ? "0\n" : "8\n");
    b.file("/proc/driver/nvidia/gpus/" + bus + "/numa_status",
           "Node:      " + std::to_string(node) + "\nStatus:    online\n");
    b.file("/sys/devices/system/node/node" + std::to_string(node) + "/meminfo",
           node_meminfo(node, kGpuNodeKiB, kGpuNodeKiB - 1024));
  }
  b.file("/sys/bus/pci/devices/0000:00:00.0/vendor", "0x1014\n");  // an IBM PHB
  b.file("/sys/bus/pci/devices/0000:00:00.0/device", "0x04c1\n");
  b.file("/sys/bus/pci/devices/0000:00:00.0/class", "0x060400\n");
  b.tool_outcome(cuda_query_argv(cuda_query_fields()), ToolOutcome::not_found);
  return b;
}

TEST(NvidiaKernelGpus, NumaStatusParsesNodeAndStatus) {
  auto s = parse_nvidia_numa_status("Node:      252\nStatus:    online\nAddress:   2000000000\n");
  EXPECT_EQ(s.node, 252);
  EXPECT_EQ(s.status, "online");
  EXPECT_FALSE(parse_nvidia_numa_status("Node:      -1\nStatus:    disabled\n").node);
  auto m = parse_node_meminfo(node_meminfo(252, 16, 8));
  EXPECT_EQ(m.total_bytes, 16 * kKiB);
  EXPECT_EQ(m.free_bytes, 8 * kKiB);
  EXPECT_EQ(numa_nodes_text({255, 250, 251, 252, 253, 254}), "NUMA nodes 250-255");
  EXPECT_EQ(numa_nodes_text({1, 3}), "NUMA nodes 1, 3");
}

TEST(NvidiaKernelGpus, Power9V100sWithOnlyNumaStatusAreSixGpus) {
  auto b = power9_host();
  SnapshotHost host(b.snapshot);
  auto result = CudaProbe().run(host);

  ASSERT_EQ(result.entries.size(), 6u);
  ASSERT_TRUE(result.backend.reason);
  EXPECT_EQ(result.backend.reason->code, ReasonCode::tool_not_found);
  for (int i = 0; i < 6; ++i) {
    const Entry& gpu = result.entries[i];
    EXPECT_EQ(gpu.pci_bus_id, kV100s[i]);
    EXPECT_EQ(gpu.numa_node, i < 3 ? 0 : 8);  // the CPU side, from sysfs
    ASSERT_TRUE(gpu.reason);
    // The module's folder means the driver is loaded: the tool is what is missing.
    EXPECT_EQ(gpu.reason->code, ReasonCode::tool_not_found) << gpu.reason->detail;
    EXPECT_NE(gpu.reason->detail.find("/proc/driver/nvidia/gpus"), std::string::npos);
    EXPECT_EQ(gpu.memory.total_bytes, kGpuNodeKiB * kKiB);
    EXPECT_NE(gpu.memory.source.find("reachable as NUMA node " + std::to_string(250 + i)),
              std::string::npos)
        << gpu.memory.source;
  }
}

TEST(NvidiaKernelGpus, HostMemoryLeavesOutTheGpusNumaNodes) {
  auto b = power9_host();
  SnapshotHost host(b.snapshot);
  auto result = CpuProbe().run(host);
  ASSERT_EQ(result.entries.size(), 1u);
  const auto& memory = result.entries[0].memory;
  EXPECT_EQ(memory.total_bytes, kHostKiB * kKiB);  // 252 GiB, not 341.6
  EXPECT_EQ(memory.free_bytes, (310000000 - 6 * (kGpuNodeKiB - 1024)) * kKiB);
  EXPECT_NE(memory.source.find("less NUMA nodes 250-255 (GPU memory"), std::string::npos)
      << memory.source;
}

// The system facts' host memory (detect's "cpus: ... memory" line) is the same
// figure as cpu:0's: the GPUs' nodes are left out there too.
TEST(NvidiaKernelGpus, SystemResourcesLeaveOutTheGpusNumaNodes) {
  auto b = power9_host();
  SnapshotHost host(b.snapshot);
  std::vector<Warning> warnings;
  auto r = scan_host_resources(host, warnings);
  EXPECT_EQ(r.memory_bytes, kHostKiB * kKiB);
  EXPECT_EQ(r.usable_memory_bytes, kHostKiB * kKiB);
  EXPECT_NE(r.memory_source.find("less NUMA nodes 250-255"), std::string::npos) << r.memory_source;
}

TEST(NvidiaKernelGpus, ADrmCardOrADeviceNodeAloneStillNamesAGpu) {
  testing::SnapshotBuilder b;
  b.tool_outcome(cuda_query_argv(cuda_query_fields()), ToolOutcome::not_found);
  // The function's folder has uevent but no vendor/device files.
  b.link("/sys/class/drm/card1/device", "../../../bus/pci/devices/0000:65:00.0");
  b.file("/sys/bus/pci/devices/0000:65:00.0/uevent", "DRIVER=nvidia\nPCI_ID=10DE:2684\n");
  b.file("/sys/class/drm/card1-DP-1/status", "connected\n");
  {
    SnapshotHost host(b.snapshot);
    auto result = CudaProbe().run(host);
    ASSERT_EQ(result.entries.size(), 1u);
    EXPECT_EQ(result.entries[0].pci_bus_id, "0000:65:00.0");
    EXPECT_EQ(result.entries[0].pci_device_id, 0x2684);
    EXPECT_EQ(result.entries[0].name, "NVIDIA GeForce RTX 4090");
    ASSERT_TRUE(result.entries[0].reason);  // uevent's DRIVER=nvidia: the tool is missing
    EXPECT_EQ(result.entries[0].reason->code, ReasonCode::tool_not_found);
  }
  testing::SnapshotBuilder nodes;
  nodes.tool_outcome(cuda_query_argv(cuda_query_fields()), ToolOutcome::not_found);
  nodes.node("/dev/nvidia0");
  nodes.node("/dev/nvidia1");
  nodes.node("/dev/nvidiactl");
  nodes.node("/dev/nvidia-uvm");
  SnapshotHost host(nodes.snapshot);
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 2u);
  EXPECT_EQ(result.entries[1].physical_id, "nvidia:/dev/nvidia1");
  ASSERT_TRUE(result.entries[1].reason);
  EXPECT_EQ(result.entries[1].reason->code, ReasonCode::tool_not_found);
}

}  // namespace
}  // namespace hwaccel
