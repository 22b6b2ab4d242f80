// The CUDA probe's NVML path (src/probe/cuda_nvml_path.h): which runs of
// hwaccel-nvml it trusts, and that it gives the entries the nvidia-smi path gives.
#include "src/probe/cuda_nvml_path.h"

#include <gtest/gtest.h>

#include <map>

#include "src/probe/cuda_probe.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kMiB = 1048576;

ToolRun exited(int code, std::string out, std::string err = {}) {
  ToolRun run;
  run.exit_code = code;
  run.out = std::move(out);
  run.err = std::move(err);
  return run;
}

// Two H100s, the first in MIG mode with one 3g.40gb slice, as NVML and as
// nvidia-smi describe them (the same figures, in MiB for nvidia-smi).
const std::string kDocument =
    R"({"hwaccel_nvml": 1, "status": "ok", "driver_version": "580.95.05", "device_count": 2,)"
    R"( "devices": [{"index": 0, "name": "NVIDIA H100 80GB HBM3", "uuid": "GPU-aaaa",)"
    R"( "pci_bus_id": "00000000:1B:00.0", "memory_total": 85520809984, "memory_used": 0,)"
    R"( "memory_free": 84988133376, "compute_capability": "9.0", "mig_mode": 1,)"
    R"( "mig_devices": [{"index": 0, "name": "NVIDIA H100 80GB HBM3 MIG 3g.40gb",)"
    R"( "uuid": "MIG-bbbb", "gpu_instance_id": 2, "compute_instance_id": 0,)"
    R"( "memory_total": 42413850624, "memory_free": 42387636224}], "addressing_mode": "None"},)"
    R"( {"index": 1, "name": "NVIDIA H100 80GB HBM3", "uuid": "GPU-cccc",)"
    R"( "pci_bus_id": "00000000:43:00.0", "memory_total": 85520809984, "memory_used": 0,)"
    R"( "memory_free": 84988133376, "compute_capability": "9.0", "mig_mode": 0,)"
    R"( "addressing_mode": "None"}], "topology": [{"a": 0, "b": 1, "level": 50}]})";

const std::string kQueryOut =
    "index, uuid, pci.bus_id, name, memory.total [MiB], memory.used [MiB], memory.free [MiB], "
    "compute_cap, driver_version\n"
    "0, GPU-aaaa, 00000000:1B:00.0, NVIDIA H100 80GB HBM3, 81559 MiB, 0 MiB, 81051 MiB, 9.0, "
    "580.95.05\n"
    "1, GPU-cccc, 00000000:43:00.0, NVIDIA H100 80GB HBM3, 81559 MiB, 0 MiB, 81051 MiB, 9.0, "
    "580.95.05\n";
const std::string kListOut =
    "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-aaaa)\n"
    "  MIG 3g.40gb     Device  0: (UUID: MIG-bbbb)\n"
    "GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-cccc)\n";
const std::string kQOut =
    "GPU 00000000:1B:00.0\n"
    "    Addressing Mode                       : None\n"
    "    MIG Devices\n"
    "        MIG Device\n"
    "            Index                         : 0\n"
    "            GPU Instance ID               : 2\n"
    "            Compute Instance ID           : 0\n"
    "            Shared FB Memory Usage\n"
    "                Total                     : 40449 MiB\n"
    "                Free                      : 40424 MiB\n"
    "GPU 00000000:43:00.0\n"
    "    Addressing Mode                       : None\n";
const std::string kTopoOut =
    "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
    "GPU0\t X \tSYS\t0-31\t0\t\tN/A\n"
    "GPU1\tSYS\t X \t32-63\t1\t\tN/A\n";

class TwoGpuHost : public testing::FakeHost {
 public:
  std::map<std::string, std::string> links;
  Result<std::string> readlink(std::string_view path) override {
    if (auto l = links.find(std::string(path)); l != links.end()) return l->second;
    return FakeHost::readlink(path);
  }
  explicit TwoGpuHost(bool with_nvml) {
    for (const char* address : {"0000:1b:00.0", "0000:43:00.0"}) {
      const std::string dir = std::string("/sys/bus/pci/devices/") + address;
      files[dir + "/vendor"] = "0x10de\n";
      files[dir + "/device"] = "0x2330\n";
      files[dir + "/class"] = "0x030200\n";
      links[dir + "/driver"] = "../../../bus/pci/drivers/nvidia";
    }
    tools[cuda_query_argv(cuda_query_fields())] = exited(0, kQueryOut);
    tools[cuda_list_argv()] = exited(0, kListOut);
    tools[cuda_q_argv()] = exited(0, kQOut);
    tools[cuda_topology_argv()] = exited(0, kTopoOut);
    tools[cuda_addressing_mode_argv()] =
        exited(0, "pci.bus_id, addressing_mode\n00000000:1B:00.0, None\n00000000:43:00.0, None\n");
    if (with_nvml) tools[cuda_nvml_argv()] = exited(0, kDocument);
  }
};

TEST(CudaNvmlPath, GivesTheEntriesOfTheNvidiaSmiPath) {
  TwoGpuHost smi_host(false), nvml_host(true);
  auto smi = CudaProbe().run(smi_host);
  auto nvml = CudaProbe().run(nvml_host);
  ASSERT_EQ(smi.entries.size(), 3u);
  ASSERT_EQ(nvml.entries.size(), smi.entries.size());
  EXPECT_TRUE(nvml.warnings.empty()) << nvml.warnings.front().message;
  for (std::size_t i = 0; i < smi.entries.size(); ++i) {
    const Entry& a = smi.entries[i];
    const Entry& b = nvml.entries[i];
    EXPECT_EQ(a.api, "nvidia-smi");
    EXPECT_EQ(b.api, "nvml");  // which path answered
    EXPECT_EQ(a.physical_id, b.physical_id);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.uuid, b.uuid);
    EXPECT_EQ(a.pci_bus_id, b.pci_bus_id);
    EXPECT_EQ(a.compute_class, b.compute_class);
    EXPECT_EQ(a.driver_version, b.driver_version);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.memory.total_bytes, b.memory.total_bytes) << a.physical_id;
    EXPECT_EQ(a.memory.free_bytes, b.memory.free_bytes) << a.physical_id;
    EXPECT_EQ(a.cpu_affinity, b.cpu_affinity);
    EXPECT_EQ(a.partition.has_value(), b.partition.has_value());
  }
  EXPECT_EQ(nvml.entries[2].memory.total_bytes, 40449 * kMiB);  // the slice's own size
  EXPECT_EQ(nvml.entries[0].memory.source, "NVML (hwaccel-nvml)");
  EXPECT_EQ(nvml.entries[2].memory.source,
            "NVML (hwaccel-nvml, the MIG device's shared FB memory, GPU instance 2)");
  EXPECT_EQ(smi.links.size(), nvml.links.size());
  // A document without the affinity (an older helper): topo -m still runs, alone.
  std::size_t smi_runs = 0;
  for (const auto& argv : nvml_host.runs) smi_runs += argv.front() == "nvidia-smi";
  EXPECT_EQ(smi_runs, 1u);
}

// A helper that asked NVML the affinity too: topo -m's answers come from the
// document, and no nvidia-smi runs at all.
TEST(CudaNvmlPath, TopologyFromTheDocumentRunsNoNvidiaSmi) {
  std::string doc = kDocument;
  auto add = [&doc](const std::string& after, const std::string& members) {
    doc.insert(doc.find(after) + after.size(), members);
  };
  add(R"("uuid": "GPU-aaaa",)", R"( "cpu_affinity": "0-31", "numa_affinity": 0,)");
  add(R"("uuid": "GPU-cccc",)", R"( "cpu_affinity": "32-63", "numa_affinity": 1,)");
  TwoGpuHost smi_host(false), nvml_host(true);
  nvml_host.tools[cuda_nvml_argv()] = exited(0, doc);
  auto smi = CudaProbe().run(smi_host);
  auto nvml = CudaProbe().run(nvml_host);
  for (const auto& argv : nvml_host.runs) EXPECT_NE(argv.front(), "nvidia-smi") << argv.back();
  ASSERT_EQ(nvml.entries.size(), smi.entries.size());
  for (std::size_t i = 0; i < smi.entries.size(); ++i) {
    EXPECT_EQ(nvml.entries[i].cpu_affinity, smi.entries[i].cpu_affinity) << i;
    EXPECT_EQ(nvml.entries[i].numa_node, smi.entries[i].numa_node) << i;
  }
  EXPECT_EQ(nvml.entries[1].cpu_affinity, "32-63");
  ASSERT_EQ(nvml.links.size(), smi.links.size());
  ASSERT_EQ(nvml.links.size(), 1u);
  EXPECT_EQ(nvml.links[0].kind, "pcie");
  EXPECT_EQ(nvml.links[0].path, "SYS");  // NVML_TOPOLOGY_SYSTEM (50)
  EXPECT_EQ(nvml.links[0].path, smi.links[0].path);
  EXPECT_EQ(nvml.links[0].source, "tool:hwaccel-nvml");
}

// NVLink from the document: links to the peer's bus count as NV<n>; links to
// NVSwitches join every pair by the fewer switch links of the two.
TEST(CudaNvmlPath, NvLinkPeersAndSwitchesFromTheDocument) {
  auto device = [](int index, const char* bus, const std::string& links) {
    return std::string(R"({"index": )") + std::to_string(index) +
           R"(, "name": "NVIDIA H100 80GB HBM3", "uuid": "GPU-)" + std::to_string(index) +
           R"(", "pci_bus_id": ")" + bus +
           R"(", "memory_total": 1048576, "memory_used": 0, "memory_free": 1048576,)"
           R"( "compute_capability": "9.0", "cpu_affinity": "", "nvlinks": [)" +
           links + "]}";
  };
  auto link = [](int n, const char* remote, const char* type) {
    return std::string(R"({"link": )") + std::to_string(n) + R"(, "active": true,)" +
           R"( "remote_pci_bus_id": ")" + remote + R"(", "remote_type": ")" + type + R"("})";
  };
  const std::string direct =
      R"({"hwaccel_nvml": 1, "status": "ok", "device_count": 2, "devices": [)" +
      device(0, "00000000:1B:00.0",
             link(0, "00000000:43:00.0", "gpu") + "," + link(1, "00000000:43:00.0", "gpu")) +
      "," +
      device(1, "00000000:43:00.0",
             link(0, "00000000:1B:00.0", "gpu") + "," + link(1, "00000000:1B:00.0", "gpu")) +
      R"(], "topology": [{"a": 0, "b": 1, "level": 40}]})";
  NvmlAsked asked = read_nvml_run(exited(0, direct));
  ASSERT_TRUE(asked.view && asked.view->topology);
  ASSERT_EQ(asked.view->topology->links.size(), 1u);
  EXPECT_EQ(asked.view->topology->links[0].kind, "nvlink");
  EXPECT_EQ(asked.view->topology->links[0].lanes, 2);
  std::string switch_links;
  for (int n = 0; n < 3; ++n)
    switch_links += (n ? "," : "") + link(n, "00000000:05:00.0", "switch");
  const std::string fabric =
      R"({"hwaccel_nvml": 1, "status": "ok", "device_count": 2, "devices": [)" +
      device(0, "00000000:1B:00.0", switch_links) + "," +
      device(1, "00000000:43:00.0",
             link(0, "00000000:05:00.0", "switch") + "," + link(1, "00000000:06:00.0", "switch")) +
      R"(], "topology": []})";
  asked = read_nvml_run(exited(0, fabric));
  ASSERT_TRUE(asked.view && asked.view->topology);
  ASSERT_EQ(asked.view->topology->links.size(), 1u);
  EXPECT_EQ(asked.view->topology->links[0].lanes, 2);
  // An older helper's document (no affinity asked): topo -m is still asked.
  EXPECT_FALSE(read_nvml_run(exited(0, kDocument)).view->topology);
}

TEST(CudaNvmlPath, FallsBackToNvidiaSmiOnWhatCannotBeTrusted) {
  struct Case {
    ToolRun run;
    std::string warning;  // "" when the fallback is silent
  };
  ToolRun timeout;
  timeout.outcome = ToolOutcome::timeout;
  ToolRun missing;
  missing.outcome = ToolOutcome::not_found;
  ToolRun truncated = exited(0, kDocument.substr(0, 200));
  const std::vector<Case> cases = {
      {missing, ""},
      {exited(0, R"({"hwaccel_nvml": 1, "status": "no_library", "detail": "not found"})"), ""},
      {exited(0, R"({"hwaccel_nvml": 1, "status": "init_failed", "errors": [)"
                 R"({"call": "nvmlInit_v2", "rc": 9, "error": "Driver Not Loaded"}]})"),
       ""},
      {timeout, "hwaccel-nvml did not answer within the timeout; asked nvidia-smi instead"},
      {truncated, "hwaccel-nvml printed no document it could read (not JSON"},
      {exited(0, "Segmentation fault\n"), "hwaccel-nvml printed no document it could read"},
      {exited(139, "", "boom"), "hwaccel-nvml exited with 139 (\"boom\")"},
      {exited(0, R"({"hwaccel_nvml": 1, "status": "ok", "device_count": 2, "devices": [)"
                 R"({"index": 0, "name": "X"}]})"),
       "NVML counts 2 GPUs but describes 1"},
      {exited(
           0,
           R"({"hwaccel_nvml": 1, "status": "ok", "device_count": 1, "devices": [)"
           R"({"index": 0, "errors": [{"call": "nvmlDeviceGetName", "rc": 999, "error": "Unknown Error"}]}]})"),
       "NVML gives GPU 0 no name (nvmlDeviceGetName: Unknown Error (999))"},
  };
  for (const auto& c : cases) {
    TwoGpuHost host(false);
    host.tools[cuda_nvml_argv()] = c.run;
    auto result = CudaProbe().run(host);
    ASSERT_EQ(result.entries.size(), 3u) << c.warning;
    EXPECT_EQ(result.entries[0].api, "nvidia-smi") << c.warning;
    EXPECT_EQ(result.entries[2].memory.total_bytes, 40449 * kMiB);
    std::string warnings;
    for (const auto& w : result.warnings) warnings += w.message + "\n";
    if (c.warning.empty())
      EXPECT_EQ(warnings, "") << c.run.out;
    else
      EXPECT_NE(warnings.find(c.warning), std::string::npos) << warnings;
  }
}

TEST(CudaNvmlPath, NotAskedWhereTheHostCannotAnswer) {
  // A recording made before hwaccel-nvml: no run of it, so none is asked (no miss).
  TwoGpuHost host(false);
  (void)CudaProbe().run(host);
  for (const auto& argv : host.runs) EXPECT_NE(argv, cuda_nvml_argv());
}

TEST(CudaNvmlPath, MigProfileAndSharedMemoryGpu) {
  auto asked = read_nvml_run(
      exited(0, R"({"hwaccel_nvml": 1, "status": "ok", "driver_version": "580.95.05", "devices": [)"
                R"({"index": 0, "name": "NVIDIA GB10", "pci_bus_id": "0000000F:01:00.0",)"
                R"( "compute_capability": "12.1", "errors": [{"call": "nvmlDeviceGetMemoryInfo",)"
                R"( "rc": 3, "error": "Not Supported"}]}]})"));
  ASSERT_TRUE(asked.view) << asked.why_not;
  ASSERT_EQ(asked.view->query.gpus.size(), 1u);
  const auto& gpu = asked.view->query.gpus[0];
  EXPECT_TRUE(gpu.memory_not_reported);  // the probe reads /proc/meminfo, as for nvidia-smi
  EXPECT_EQ(gpu.pci_bus_id, "000f:01:00.0");
  EXPECT_EQ(gpu.driver_version, "580.95.05");
  EXPECT_TRUE(asked.view->problems.empty());  // Not Supported memory is no problem here
}

}  // namespace
}  // namespace hwaccel
