// Conformance over the real nvidia-smi captures in fixtures/real:
// the probe, fed each capture's own -L, topo -m and --query-gpu sections,
// finds the right GPUs, names, memory, bus ids and MIG instances.
#include <gtest/gtest.h>

#include <algorithm>

#include "src/probe/cuda_probe.h"
#include "src/probe/nvidia_smi_list.h"
#include "src/probe/nvidia_smi_topo.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kMiB = 1048576;

struct Capture {
  std::string file, name, bus_id, cpu_affinity;
  std::uint64_t total_mib, free_mib;
  std::vector<std::string> mig_profiles;
  std::vector<std::uint64_t> mig_total_mib, mig_free_mib;  // -q's Shared FB Memory Usage
};

// Test names and logs show the GPU, not the struct's bytes.
void PrintTo(const Capture& c, std::ostream* os) {
  *os << c.name;
}

const Capture kCaptures[] = {
    {"nvidia-smi__linux-x86_64__nvidia-h100-mig__590.48.01.txt",
     "NVIDIA H100 80GB HBM3",
     "0000:00:09.0",
     "0-19",
     81559,
     81022,
     {"3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"},
     {40448, 20096, 9984, 9984},
     {40423, 20080, 9976, 9976}},
    {"nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt",
     "NVIDIA H200",
     "0000:83:00.0",
     "0-23",
     143771,
     143158,
     {},
     {},
     {}},
    {"nvidia-smi__linux-x86_64__nvidia-l40s__595.80.txt",
     "NVIDIA L40S",
     "0000:01:00.0",
     "0-7",
     46068,
     45460,
     {},
     {},
     {}},
    {"nvidia-smi__linux-x86_64__nvidia-geforce-rtx-4080-super__595.71.05.txt",
     "NVIDIA GeForce RTX 4080 SUPER",
     "0000:01:00.0",
     "0-15",
     16376,
     15348,
     {},
     {},
     {}},
};

struct Sections {
  std::string query, list, topo, q;
};

std::optional<Sections> sections(const std::string& file) {
  auto text = testing::slurp(testing::real_capture_path(file));
  if (!text) return std::nullopt;
  auto query = testing::capture_section(*text, "nvidia-smi --query-gpu=");
  auto list = testing::capture_section(*text, "nvidia-smi -L");
  auto topo = testing::capture_section(*text, "nvidia-smi topo -m");
  auto q = testing::capture_section(*text, "nvidia-smi -q");  // the idle one: first
  if (!query || !list || !topo || !q) return std::nullopt;
  return Sections{*query, *list, *topo, *q};
}

ToolRun ok(std::string out) {
  ToolRun run;
  run.out = std::move(out);
  return run;
}

class CudaRealCapture : public ::testing::TestWithParam<Capture> {};

TEST_P(CudaRealCapture, ProbeFindsTheGpuAndItsMigInstances) {
  const Capture& c = GetParam();
  auto s = sections(c.file);
  if (!s) GTEST_FAIL() << "real capture not found (or a section missing): " << c.file;
  testing::FakeHost host;
  host.tools[cuda_query_argv(cuda_query_fields())] = ok(s->query);
  host.tools[cuda_list_argv()] = ok(s->list);
  host.tools[cuda_addressing_mode_argv()] = ok(s->query);  // has pci.bus_id, addressing_mode
  host.tools[cuda_q_argv()] = ok(s->q);
  auto result = CudaProbe().run(host);

  EXPECT_TRUE(result.backend.ready);
  EXPECT_TRUE(result.warnings.empty()) << result.warnings.front().message;
  EXPECT_TRUE(result.links.empty());  // one GPU: topo -m is not run
  ASSERT_EQ(result.entries.size(), 1 + c.mig_profiles.size());
  const Entry& gpu = result.entries[0];
  EXPECT_EQ(gpu.name, c.name);
  EXPECT_EQ(gpu.pci_bus_id, c.bus_id);
  EXPECT_EQ(gpu.physical_id, "pci:" + c.bus_id);
  EXPECT_EQ(gpu.memory.total_bytes, c.total_mib * kMiB);
  EXPECT_EQ(gpu.memory.free_bytes, c.free_mib * kMiB);
  EXPECT_EQ(gpu.memory.source, "nvidia-smi");  // addressing mode None / HMM: not ATS
  EXPECT_EQ(gpu.partitioned, !c.mig_profiles.empty());
  for (std::size_t i = 0; i < c.mig_profiles.size(); ++i) {
    const Entry& mig = result.entries[1 + i];
    EXPECT_EQ(mig.index, int(1 + i));
    EXPECT_EQ(mig.physical_id, "mig:" + c.bus_id + "/" + std::to_string(i));
    ASSERT_TRUE(mig.partition);
    EXPECT_EQ(mig.partition->profile, c.mig_profiles[i]);
    EXPECT_EQ(mig.partition->parent_physical_id, gpu.physical_id);
    EXPECT_EQ(mig.partition->parent_index, 0);
    EXPECT_EQ(mig.uuid.rfind("MIG-", 0), 0u);
    EXPECT_EQ(mig.status, EntryStatus::ready);
    // The real sizes, not the names' GB: 3g.40gb is 40448 MiB, 1g.10gb 9984 MiB.
    EXPECT_EQ(mig.memory.total_bytes, c.mig_total_mib[i] * kMiB) << mig.memory.source;
    EXPECT_EQ(mig.memory.free_bytes, c.mig_free_mib[i] * kMiB);
    EXPECT_EQ(mig.memory.source.rfind("nvidia-smi -q", 0), 0u) << mig.memory.source;
  }
  // -q is asked only where -L shows MIG devices (or the driver lacks addressing_mode).
  EXPECT_EQ(std::count(host.runs.begin(), host.runs.end(), cuda_q_argv()),
            c.mig_profiles.empty() ? 0 : 1);
}

TEST_P(CudaRealCapture, TopologySectionParses) {
  const Capture& c = GetParam();
  auto s = sections(c.file);
  if (!s) GTEST_FAIL() << "real capture not found (or a section missing): " << c.file;
  auto topo = parse_nvidia_smi_topo(s->topo);
  EXPECT_TRUE(topo.problems.empty()) << topo.problems.front();
  ASSERT_EQ(topo.gpus.size(), 1u);
  EXPECT_EQ(topo.gpus[0].cpu_affinity, c.cpu_affinity);
  EXPECT_EQ(topo.gpus[0].numa_node, 0);
  EXPECT_TRUE(topo.links.empty());
}

TEST_P(CudaRealCapture, ListSectionParses) {
  const Capture& c = GetParam();
  auto s = sections(c.file);
  if (!s) GTEST_FAIL() << "real capture not found (or a section missing): " << c.file;
  auto list = parse_nvidia_smi_list(s->list);
  EXPECT_TRUE(list.problems.empty()) << list.problems.front();
  ASSERT_EQ(list.gpus.size(), 1u);
  EXPECT_EQ(list.gpus[0].name, c.name);
  ASSERT_EQ(list.gpus[0].mig_devices.size(), c.mig_profiles.size());
  for (std::size_t i = 0; i < c.mig_profiles.size(); ++i) {
    EXPECT_EQ(list.gpus[0].mig_devices[i].profile, c.mig_profiles[i]);
    EXPECT_EQ(list.gpus[0].mig_devices[i].device, int(i));
  }
}

std::string capture_name(const ::testing::TestParamInfo<Capture>& info) {
  std::string name = info.param.name;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Nvidia, CudaRealCapture, ::testing::ValuesIn(kCaptures), capture_name);

}  // namespace
}  // namespace hwaccel
