// The CUDA probe beyond the query: GPUs on the PCI bus without a working
// driver, MIG instances, topology, ATS and CUDA_VISIBLE_DEVICES.
#include <gtest/gtest.h>

#include <map>
#include <optional>

#include "src/probe/cuda_probe.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kMiB = 1048576;

constexpr std::string_view kHeader =
    "index, uuid, pci.bus_id, name, memory.total [MiB], memory.used [MiB], memory.free [MiB], "
    "compute_cap, driver_version\n";

const std::vector<std::string> kQuery = cuda_query_argv(cuda_query_fields());

ToolRun exited(int code, std::string out) {
  ToolRun run;
  run.exit_code = code;
  run.out = std::move(out);
  return run;
}

// FakeHost with driver links (FakeHost's readlink always fails).
class BusHost : public testing::FakeHost {
 public:
  std::map<std::string, std::string> links;
  Result<std::string> readlink(std::string_view path) override {
    if (auto l = links.find(std::string(path)); l != links.end()) return l->second;
    return FakeHost::readlink(path);
  }
  // One PCI function in sysfs; `driver` "" leaves it unbound.
  void pci(const std::string& address, const std::string& device, const std::string& klass,
           const std::string& driver = "", const std::string& numa = "") {
    const std::string dir = "/sys/bus/pci/devices/" + address;
    files[dir + "/vendor"] = "0x10de\n";
    files[dir + "/device"] = device + "\n";
    files[dir + "/class"] = klass + "\n";
    if (!numa.empty()) files[dir + "/numa_node"] = numa + "\n";
    if (!driver.empty()) links[dir + "/driver"] = "../../../bus/pci/drivers/" + driver;
  }
};

constexpr std::string_view kNoDriver =
    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
    "that the latest NVIDIA driver is installed and running.\n";

TEST(CudaBus, NoDriverNamesEveryGpuOnTheBus) {
  BusHost host;
  host.tools[kQuery] = exited(9, std::string(kNoDriver));
  host.pci("0000:1b:00.0", "0x2330", "0x030200", "", "0");
  host.pci("0000:43:00.0", "0x2330", "0x030200", "", "0");
  host.pci("0000:05:00.0", "0x22a3", "0x068000");                       // an NVSwitch: not a GPU
  host.files["/sys/bus/pci/devices/0000:1b:00.1/vendor"] = "0x10de\n";  // no device id: skipped
  auto result = CudaProbe().run(host);

  EXPECT_FALSE(result.backend.ready);
  ASSERT_TRUE(result.backend.reason);
  EXPECT_EQ(result.backend.reason->code, ReasonCode::driver_not_found);
  ASSERT_EQ(result.entries.size(), 2u);
  const auto& gpu = result.entries[0];
  EXPECT_EQ(gpu.status, EntryStatus::unavailable);
  EXPECT_EQ(gpu.index, 0);
  EXPECT_EQ(gpu.name, "NVIDIA H100 SXM5 80GB");
  EXPECT_EQ(gpu.pci_bus_id, "0000:1b:00.0");
  EXPECT_EQ(gpu.physical_id, "pci:0000:1b:00.0");
  EXPECT_EQ(gpu.pci_vendor_id, 0x10de);
  EXPECT_EQ(gpu.pci_device_id, 0x2330);
  EXPECT_EQ(gpu.numa_node, 0);
  EXPECT_FALSE(gpu.memory.total_bytes);
  ASSERT_TRUE(gpu.reason);
  EXPECT_EQ(gpu.reason->code, ReasonCode::driver_not_found);
  EXPECT_NE(gpu.reason->detail.find("couldn't communicate with the NVIDIA driver"),
            std::string::npos);
  EXPECT_EQ(result.entries[1].pci_bus_id, "0000:43:00.0");
  EXPECT_EQ(result.entries[1].index, 1);
}

TEST(CudaBus, MismatchIsProbeFailedWithTheToolsWords) {
  BusHost host;
  host.tools[kQuery] = exited(18, "Failed to initialize NVML: Driver/library version mismatch\n");
  host.pci("0000:01:00.0", "0x1234", "0x030000", "nvidia");
  host.files["/proc/driver/nvidia/gpus/0000:01:00.0/information"] =
      "Model: \t\t NVIDIA RTX 9999\nGPU UUID: \t GPU-abc\nBus Location: \t 0000:01:00.0\n";
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 1u);
  EXPECT_EQ(result.entries[0].name, "NVIDIA RTX 9999");  // the module's name beats the table
  EXPECT_EQ(result.entries[0].uuid, "GPU-abc");
  EXPECT_EQ(result.entries[0].reason->code, ReasonCode::probe_failed);
  EXPECT_EQ(result.entries[0].reason->detail,
            "Failed to initialize NVML: Driver/library version mismatch");
  EXPECT_EQ(result.backend.reason->code, ReasonCode::probe_failed);
}

TEST(CudaBus, UnknownIdGetsAPlainName) {
  BusHost host;
  host.tools[kQuery] = exited(9, std::string(kNoDriver));
  host.pci("0000:01:00.0", "0x1234", "0x030000");
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 1u);
  EXPECT_EQ(result.entries[0].name, "NVIDIA device 0x1234");
}

TEST(CudaBus, NoToolNoDriver) {
  BusHost host;  // nvidia-smi not found
  host.pci("0000:1b:00.0", "0x20b2", "0x030200");
  host.pci("0000:2b:00.0", "0x20b2", "0x030200", "vfio-pci");
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 2u);
  EXPECT_EQ(result.entries[0].reason->code, ReasonCode::driver_not_found);
  EXPECT_EQ(result.entries[0].reason->detail,
            "no driver bound to 0000:1b:00.0 (nvidia-smi not found)");
  EXPECT_EQ(result.entries[1].reason->detail,
            "0000:2b:00.0 is bound to vfio-pci, not nvidia (nvidia-smi not found)");
  EXPECT_EQ(result.backend.reason->code, ReasonCode::driver_not_found);
  EXPECT_EQ(result.backend.reason->detail,
            "2 NVIDIA GPUs on the PCI bus without the nvidia driver; nvidia-smi not found");
}

TEST(CudaBus, NoToolButDriverBoundIsToolNotFound) {
  BusHost host;
  host.pci("0000:01:00.0", "0x2684", "0x030000", "nvidia");
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 1u);
  EXPECT_EQ(result.entries[0].name, "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(result.entries[0].reason->code, ReasonCode::tool_not_found);
  EXPECT_EQ(result.backend.reason->code, ReasonCode::tool_not_found);
}

TEST(CudaBus, NothingAnywhereIsTheBackendLineAlone) {
  testing::FakeHost host;
  auto result = CudaProbe().run(host);
  EXPECT_TRUE(result.entries.empty());
  EXPECT_EQ(result.backend.reason->code, ReasonCode::tool_not_found);
  host.tools[kQuery] = exited(6, "No devices were found\n");
  result = CudaProbe().run(host);
  EXPECT_TRUE(result.entries.empty());
  EXPECT_EQ(result.backend.reason->code, ReasonCode::no_device);
}

std::string rows(int n, const std::string& driver = "550.54.15") {
  std::string out(kHeader);
  for (int i = 0; i < n; ++i) {
    char bus[32];
    std::snprintf(bus, sizeof bus, "00000000:%02X:00.0", 0x10 + i * 0x10);
    out += std::to_string(i) + ", GPU-" + std::to_string(i) + "aaa, " + bus +
           ", NVIDIA H100 80GB HBM3, 81559 MiB, 0 MiB, 81007 MiB, 9.0, " + driver + "\n";
  }
  return out;
}

TEST(CudaBus, WorkingToolGetsNumaAndDeviceIdFromTheBusAndListsWhatItMissed) {
  BusHost host;
  host.tools[kQuery] = exited(0, rows(1));
  host.tools[cuda_list_argv()] = exited(0, "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0aaa)\n");
  host.pci("0000:10:00.0", "0x2330", "0x030200", "nvidia", "1");
  host.pci("0000:20:00.0", "0x2330", "0x030200", "vfio-pci", "1");
  auto result = CudaProbe().run(host);
  EXPECT_TRUE(result.backend.ready);
  ASSERT_EQ(result.entries.size(), 2u);
  EXPECT_EQ(result.entries[0].numa_node, 1);
  EXPECT_EQ(result.entries[0].pci_device_id, 0x2330);
  EXPECT_EQ(result.entries[0].physical_id, "pci:0000:10:00.0");
  EXPECT_EQ(result.entries[1].status, EntryStatus::unavailable);
  EXPECT_EQ(result.entries[1].index, 1);
  EXPECT_EQ(result.entries[1].reason->detail, "0000:20:00.0 is bound to vfio-pci, not nvidia");
}

TEST(CudaBus, TopologyBecomesLinksAndAffinity) {
  testing::FakeHost host;
  host.tools[kQuery] = exited(0, rows(2));
  host.tools[cuda_list_argv()] = exited(0, "");
  host.tools[cuda_topology_argv()] =
      exited(0,
             "\t\x1b[4mGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m\n"
             "GPU0\t X \tNV4\t0-15\t0\t\tN/A\nGPU1\tNV4\t X \t16-31\t1\t\tN/A\n\nLegend:\n");
  auto result = CudaProbe().run(host);
  EXPECT_TRUE(result.warnings.empty()) << result.warnings.front().message;
  ASSERT_EQ(result.links.size(), 1u);
  EXPECT_EQ(result.links[0], (Link{"pci:0000:10:00.0", "pci:0000:20:00.0", "nvlink", 4, "",
                                   "tool:nvidia-smi topo -m"}));
  EXPECT_EQ(result.entries[1].cpu_affinity, "16-31");
  EXPECT_EQ(result.entries[1].numa_node, 1);  // no sysfs numa_node here: topo's
}

TEST(CudaBus, OneGpuDoesNotRunTopo) {
  testing::FakeHost host;
  host.tools[kQuery] = exited(0, rows(1));
  host.tools[cuda_list_argv()] = exited(0, "");
  (void)CudaProbe().run(host);
  EXPECT_EQ(host.runs, (std::vector<std::vector<std::string>>{kQuery, cuda_list_argv()}));
}

TEST(CudaBus, MigInstancesAreEntriesOfTheirOwn) {
  testing::FakeHost host;
  host.tools[kQuery] = exited(0, rows(2));
  host.tools[cuda_topology_argv()] = exited(0, "");
  host.tools[cuda_list_argv()] = exited(0,
                                        "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0aaa)\n"
                                        "GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-1aaa)\n"
                                        "  MIG 3g.40gb     Device  0: (UUID: MIG-0bbb)\n"
                                        "  MIG 1g.10gb     Device  1: (UUID: MIG-1bbb)\n");
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 4u);
  EXPECT_FALSE(result.entries[0].partitioned);
  EXPECT_TRUE(result.entries[1].partitioned);
  EXPECT_EQ(result.entries[1].status, EntryStatus::ready);
  const auto& mig = result.entries[2];
  EXPECT_EQ(mig.index, 2);
  EXPECT_EQ(mig.physical_id, "mig:0000:20:00.0/0");
  EXPECT_EQ(mig.name, "NVIDIA H100 80GB HBM3 MIG 3g.40gb");
  EXPECT_EQ(mig.uuid, "MIG-0bbb");
  ASSERT_TRUE(mig.partition);
  EXPECT_EQ(mig.partition->profile, "3g.40gb");
  EXPECT_EQ(mig.partition->parent_physical_id, "pci:0000:20:00.0");
  EXPECT_EQ(mig.partition->parent_index, 1);
  // No nvidia-smi -q, table or -lgip answer: the H100 80GB's profile table.
  EXPECT_EQ(mig.memory.total_bytes, 40448 * kMiB);
  EXPECT_FALSE(mig.memory.free_bytes);
  EXPECT_EQ(mig.memory.source.rfind("the H100 80GB MIG profile table (profile 3g.40gb", 0), 0u)
      << mig.memory.source;
  EXPECT_EQ(result.entries[3].physical_id, "mig:0000:20:00.0/1");
  EXPECT_EQ(result.entries[3].index, 3);
}

// Two compute instances of one GPU instance are two CUDA devices but one memory.
TEST(CudaBus, ComputeInstancesOfOneGpuInstanceShareItsMemory) {
  testing::FakeHost host;
  host.tools[kQuery] = exited(0, rows(1));
  host.tools[cuda_list_argv()] = exited(0,
                                        "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0aaa)\n"
                                        "  MIG 1c.3g.40gb  Device  0: (UUID: MIG-0bbb)\n"
                                        "  MIG 1c.3g.40gb  Device  1: (UUID: MIG-1bbb)\n");
  std::string q = "GPU 00000000:10:00.0\n    Addressing Mode : None\n";
  for (int device = 0; device < 2; ++device)
    q += "    MIG Device\n        Index : " + std::to_string(device) +
         "\n        GPU Instance ID : 1\n        Compute Instance ID : " + std::to_string(device) +
         "\n        Shared FB Memory Usage\n            Total : 40448 MiB\n"
         "            Used : 26 MiB\n            Free : 40423 MiB\n";
  host.tools[cuda_q_argv()] = exited(0, q);
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 3u);
  EXPECT_EQ(result.entries[1].memory.total_bytes, 40448 * kMiB);
  EXPECT_EQ(result.entries[1].memory.free_bytes, 40423 * kMiB);
  EXPECT_FALSE(result.entries[2].memory.total_bytes);  // never twice the same 40 GiB
  EXPECT_NE(result.entries[2].memory.source.find("shares GPU instance 1's memory with " +
                                                 result.entries[1].physical_id),
            std::string::npos)
      << result.entries[2].memory.source;
}

TEST(CudaBus, AtsKeepsTheHbmAndSaysSo) {
  testing::FakeHost host;
  host.tools[kQuery] = exited(
      0, std::string(kHeader) +
             "0, GPU-0aaa, 00000009:01:00.0, NVIDIA GH200 480GB, 97871 MiB, 0 MiB, 97300 MiB, "
             "9.0, 580.95.05\n");
  host.tools[cuda_list_argv()] = exited(0, "");
  host.tools[cuda_addressing_mode_argv()] =
      exited(0, "pci.bus_id, addressing_mode\n00000009:01:00.0, ATS\n");
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 1u);
  const auto& gpu = result.entries[0];
  EXPECT_EQ(gpu.memory.kind, MemoryKind::discrete);
  EXPECT_EQ(gpu.memory.total_bytes, 97871 * kMiB);
  EXPECT_EQ(gpu.memory.source,
            "nvidia-smi (the GPU's own memory); addressing mode ATS (from the addressing_mode "
            "query): host memory is also reachable");
  // A driver before 580 on an x86 host behind PCIe is not asked: ATS cannot be.
  testing::FakeHost old;
  old.tools[kQuery] = exited(0, rows(1, "575.57.08"));
  old.tools[cuda_list_argv()] = exited(0, "");
  (void)CudaProbe().run(old);
  EXPECT_EQ(old.runs.size(), 2u);
}

// A GH200 on driver 550.127.05: the query field does not exist yet; -q says ATS.
TEST(CudaBus, AtsOnADriverBeforeTheQueryFieldComesFromDashQ) {
  testing::FakeHost host;
  host.host_facts.arch = "aarch64";
  host.tools[kQuery] = exited(
      0, std::string(kHeader) +
             "0, GPU-0aaa, 00000009:01:00.0, NVIDIA GH200 480GB, 97871 MiB, 0 MiB, 97300 MiB, "
             "9.0, 550.127.05\n");
  host.tools[cuda_list_argv()] = exited(0, "GPU 0: NVIDIA GH200 480GB (UUID: GPU-0aaa)\n");
  host.tools[cuda_addressing_mode_argv()] =
      exited(2, "Field \"addressing_mode\" is not a valid field to query.\n\n");
  host.tools[cuda_q_argv()] =
      exited(0,
             "\n==============NVSMI LOG==============\n\nDriver Version : 550.127.05\n"
             "GPU 00000009:01:00.0\n    Product Name : NVIDIA GH200 480GB\n"
             "    Addressing Mode : ATS\n    MIG Mode\n        Current : Disabled\n");
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 1u);
  EXPECT_TRUE(result.warnings.empty()) << result.warnings.front().message;
  EXPECT_EQ(result.entries[0].memory.source,
            "nvidia-smi (the GPU's own memory); addressing mode ATS (from nvidia-smi -q's "
            "Addressing Mode): host memory is also reachable");

  // -q failing too: the PCI id still says superchip, and the entry says that decided.
  host.tools[cuda_q_argv()] = exited(6, "");
  host.files["/sys/bus/pci/devices/0009:01:00.0/vendor"] = "0x10de\n";
  host.files["/sys/bus/pci/devices/0009:01:00.0/device"] = "0x2342\n";
  host.files["/sys/bus/pci/devices/0009:01:00.0/class"] = "0x030200\n";
  result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 1u);
  EXPECT_NE(
      result.entries[0].memory.source.find("ATS (from PCI id 10de:2342, a Grace superchip's GPU)"),
      std::string::npos)
      << result.entries[0].memory.source;
}

// An HGX A100 whose topo -m failed: its NVSwitch bridges (10de:1af1) on the bus
// and nvlink -s still say every GPU pair is NVLink, 12 links each.
TEST(CudaBus, NvswitchBridgesGiveTheFabricWithoutTopo) {
  BusHost host;
  host.tools[kQuery] = exited(0, rows(2));
  host.tools[cuda_list_argv()] = exited(0, "");
  host.tools[cuda_topology_argv()] = exited(1, "Failed to run topology\n");
  for (const char* sw : {"0000:c0:00.0", "0000:c1:00.0"}) host.pci(sw, "0x1af1", "0x068000");
  std::string nvlink;
  for (int gpu = 0; gpu < 2; ++gpu) {
    nvlink += "GPU " + std::to_string(gpu) + ": NVIDIA A100-SXM4-80GB (UUID: GPU-x)\n";
    for (int link = 0; link < 12; ++link)
      nvlink += "\t Link " + std::to_string(link) + ": 25 GB/s\n";
  }
  host.tools[{"nvidia-smi", "nvlink", "-s"}] = exited(0, nvlink);
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.links.size(), 1u);
  EXPECT_EQ(result.links[0].kind, "nvlink");
  EXPECT_EQ(result.links[0].lanes, 12);
  EXPECT_EQ(result.links[0].source,
            "file:/sys/bus/pci/devices (2 NVSwitch bridges, 10de:1af1); tool:nvidia-smi nvlink -s");
}

struct Visible {
  std::optional<std::string> value;
  std::vector<bool> ready;    // per entry: 2 whole GPUs, then MIG 0 and 1 of GPU 1
  std::vector<int> ordinals;  // per entry, -1 for none
};

// CUDA's numbering (cuda_visible.h) on a host of one whole GPU and one split
// into two MIG devices: which entries stay ready, and the ordinal of each.
TEST(CudaBus, CudaVisibleDevices) {
  const Visible cases[] = {
      {std::nullopt, {true, true, true, true}, {0, -1, -1, -1}},  // whole GPUs win
      {"0", {true, false, false, false}, {0, -1, -1, -1}},
      {"1", {false, true, true, false}, {-1, -1, 0, -1}},  // the first MIG device
      {"GPU-1", {false, true, true, false}, {-1, -1, 0, -1}},
      {"MIG-1bbb", {false, true, false, true}, {-1, -1, -1, 0}},
      {"1,0", {true, false, false, false}, {0, -1, -1, -1}},    // no MIG beside a whole GPU
      {"0,7,1", {true, false, false, false}, {0, -1, -1, -1}},  // 7 names nothing: list ends
      {"0,x,1", {true, false, false, false}, {0, -1, -1, -1}},
      {"0,0", {false, false, false, false}, {-1, -1, -1, -1}},   // named twice: no device
      {"GPU-", {false, false, false, false}, {-1, -1, -1, -1}},  // not a valid token
      {"", {false, false, false, false}, {-1, -1, -1, -1}},
  };
  for (const auto& c : cases) {
    const std::string shown = c.value ? "\"" + *c.value + "\"" : "unset";
    testing::FakeHost host;
    host.tools[kQuery] = exited(0, rows(2));
    host.tools[cuda_topology_argv()] = exited(0, "");
    host.tools[cuda_list_argv()] = exited(0,
                                          "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0aaa)\n"
                                          "GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-1aaa)\n"
                                          "  MIG 3g.40gb     Device  0: (UUID: MIG-0bbb)\n"
                                          "  MIG 3g.40gb     Device  1: (UUID: MIG-1bbb)\n");
    if (c.value) host.environment["CUDA_VISIBLE_DEVICES"] = *c.value;
    auto result = CudaProbe().run(host);
    ASSERT_EQ(result.entries.size(), 4u) << shown;
    for (std::size_t i = 0; i < 4; ++i) {
      const auto& e = result.entries[i];
      EXPECT_EQ(e.status == EntryStatus::ready, c.ready[i]) << shown << " entry " << i;
      EXPECT_EQ(e.ordinal.value_or(-1), c.ordinals[i]) << shown << " entry " << i;
      if (!c.ready[i]) {
        EXPECT_EQ(e.reason->code, ReasonCode::not_visible);
        EXPECT_EQ(e.reason->detail.rfind("hidden by CUDA_VISIBLE_DEVICES=", 0), 0u);
      }
    }
    bool any = false;
    for (bool r : c.ready) any |= r;
    EXPECT_EQ(result.backend.ready, any) << shown;
    if (!any) {
      EXPECT_EQ(result.backend.reason->code, ReasonCode::not_visible) << shown;
    }
  }
}

// The case: CUDA_VISIBLE_DEVICES=2,3 makes nvidia-smi's GPUs 2 and 3 CUDA
// devices 0 and 1; CUDA_DEVICE_ORDER=PCI_BUS_ID changes nothing on alike GPUs.
TEST(CudaBus, OrdinalsAreCudasNotNvidiaSmis) {
  for (const char* order : {"", "PCI_BUS_ID"}) {
    testing::FakeHost host;
    host.tools[kQuery] = exited(0, rows(4));
    host.tools[cuda_topology_argv()] = exited(0, "");
    host.environment["CUDA_VISIBLE_DEVICES"] = "3,2";
    if (*order) host.environment["CUDA_DEVICE_ORDER"] = order;
    auto result = CudaProbe().run(host);
    ASSERT_EQ(result.entries.size(), 4u);
    EXPECT_EQ(result.entries[2].index, 2);
    EXPECT_EQ(result.entries[2].ordinal, 1);
    EXPECT_EQ(result.entries[3].ordinal, 0);
    EXPECT_FALSE(result.entries[0].ordinal);
    EXPECT_EQ(result.entries[0].status, EntryStatus::unavailable);
  }
}

TEST(CudaBus, GarbageFromEveryToolNeverThrows) {
  std::string noise;
  for (int i = 0; i < 3000; ++i) noise += char((i * 131 + 7) % 256);
  testing::FakeHost host;
  host.tools[kQuery] = exited(0, rows(3, "590.48.01"));
  host.tools[cuda_list_argv()] = exited(0, noise);
  host.tools[cuda_topology_argv()] = exited(0, noise);
  host.tools[cuda_addressing_mode_argv()] = exited(0, noise);
  host.environment["CUDA_VISIBLE_DEVICES"] = noise;
  auto result = CudaProbe().run(host);
  EXPECT_EQ(result.entries.size(), 3u);
}

}  // namespace
}  // namespace hwaccel
