// `nvidia-smi -q` read as a list of GPUs, on the real captures' -q sections
// (fixtures/real, provenance in its README): the driver lines, each GPU's name,
// bus id, UUID, FB memory (not BAR1's, not a MIG device's), MIG mode; and the
// CUDA probe listing the GPUs from -q alone where no query was recorded.
#include "src/probe/nvidia_smi_q.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "src/probe/cuda_probe.h"
#include "src/probe/cuda_q_only.h"
#include "src/probe/cuda_tool.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kMiB = 1048576;

struct QCapture {
  std::string file, name, bus_id, driver, cuda, mig_mode;
  std::uint64_t total_mib, used_mib, free_mib;
  std::size_t mig_devices;
};

void PrintTo(const QCapture& c, std::ostream* os) {
  *os << c.name;
}

const QCapture kQCaptures[] = {
    {"nvidia-smi__linux-x86_64__nvidia-h100-mig__590.48.01.txt", "NVIDIA H100 80GB HBM3",
     "0000:00:09.0", "590.48.01", "13.1", "Enabled", 81559, 59, 81022, 4},
    {"nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt", "NVIDIA H200", "0000:83:00.0",
     "590.48.01", "13.1", "Disabled", 143771, 0, 143158, 0},
    {"nvidia-smi__linux-x86_64__nvidia-l40s__595.80.txt", "NVIDIA L40S", "0000:01:00.0", "595.80",
     "13.2", "N/A", 46068, 0, 45460, 0},
    {"nvidia-smi__linux-x86_64__nvidia-geforce-rtx-4080-super__595.71.05.txt",
     "NVIDIA GeForce RTX 4080 SUPER", "0000:01:00.0", "595.71.05", "13.2", "N/A", 16376, 596, 15348,
     0},
};

std::optional<std::string> q_section(const std::string& file) {
  auto text = testing::slurp(testing::real_capture_path(file));
  if (!text) return std::nullopt;
  return testing::capture_section(*text, "nvidia-smi -q");  // the idle one: first
}

ToolRun ok(std::string out) {
  ToolRun run;
  run.out = std::move(out);
  return run;
}

class NvidiaSmiQCapture : public ::testing::TestWithParam<QCapture> {};

TEST_P(NvidiaSmiQCapture, ReadsTheGpuAsTheQueryWould) {
  const QCapture& c = GetParam();
  auto text = q_section(c.file);
  if (!text) GTEST_FAIL() << "real capture not found (or no -q section): " << c.file;
  const auto q = parse_nvidia_smi_q(*text);
  EXPECT_EQ(q.driver_version, c.driver);
  EXPECT_EQ(q.cuda_version, c.cuda);
  ASSERT_EQ(q.gpus.size(), 1u);
  const auto& gpu = q.gpus[0];
  EXPECT_EQ(gpu.bus_id, c.bus_id);
  EXPECT_EQ(gpu.product_name, c.name);
  EXPECT_EQ(gpu.uuid, "GPU-00000000-0000-0000-0000-000000000000");  // masked by its authors
  EXPECT_EQ(gpu.mig_mode_current, c.mig_mode);
  // FB Memory Usage, not BAR1 (131072 MiB on the H100) nor a MIG device's Shared FB.
  EXPECT_EQ(gpu.total_bytes, c.total_mib * kMiB);
  EXPECT_EQ(gpu.used_bytes, c.used_mib * kMiB);
  EXPECT_EQ(gpu.free_bytes, c.free_mib * kMiB);
  EXPECT_FALSE(gpu.total_not_available);
  EXPECT_EQ(gpu.mig_devices.size(), c.mig_devices);

  const auto rows = query_rows_from_q(q);
  ASSERT_EQ(rows.gpus.size(), 1u);
  EXPECT_EQ(rows.gpus[0].index, 0);
  EXPECT_EQ(rows.gpus[0].name, c.name);
  EXPECT_EQ(rows.gpus[0].pci_bus_id, c.bus_id);
  EXPECT_EQ(rows.gpus[0].memory_total_bytes, c.total_mib * kMiB);
  EXPECT_EQ(rows.gpus[0].driver_version, c.driver);
  EXPECT_FALSE(rows.gpus[0].memory_not_reported);
  EXPECT_TRUE(rows.problems.empty());
}

// A snapshot holding only the -q run: the GPU from -q, ready, its memory and
// driver; the query, -L and the addressing query are never asked.
TEST_P(NvidiaSmiQCapture, TheProbeListsTheGpusFromQAlone) {
  const QCapture& c = GetParam();
  auto text = q_section(c.file);
  if (!text) GTEST_FAIL() << "real capture not found (or no -q section): " << c.file;
  testing::FakeHost host;  // knows only the runs in `tools`
  host.tools[cuda_q_argv()] = ok(*text);
  auto result = CudaProbe().run(host);
  EXPECT_TRUE(result.backend.ready);
  ASSERT_GE(result.entries.size(), 1u);
  const Entry& gpu = result.entries[0];
  EXPECT_EQ(gpu.name, c.name);
  EXPECT_EQ(gpu.pci_bus_id, c.bus_id);
  EXPECT_EQ(gpu.status, EntryStatus::ready);
  EXPECT_EQ(gpu.memory.total_bytes, c.total_mib * kMiB);
  EXPECT_EQ(gpu.memory.free_bytes, c.free_mib * kMiB);
  EXPECT_EQ(gpu.driver_version, c.driver);
  EXPECT_NE(std::find(gpu.provenance.begin(), gpu.provenance.end(), "tool:nvidia-smi -q"),
            gpu.provenance.end());
  EXPECT_EQ(host.runs, (std::vector<std::vector<std::string>>{cuda_q_argv()}));
  // MIG on, no -L recorded: the GPU is partitioned, its MIG devices come from -q
  // (TheMigDevicesOfQAlone), and a warning says they have no MIG UUIDs.
  EXPECT_EQ(gpu.partitioned, c.mig_mode == "Enabled");
  EXPECT_EQ(result.entries.size(), 1 + c.mig_devices);
  bool says_q = false, says_mig = false;
  for (const auto& w : result.warnings) {
    says_q |= w.message.find("no nvidia-smi --query-gpu run recorded") != std::string::npos;
    says_mig |= w.message.find("is in MIG mode") != std::string::npos;
  }
  EXPECT_TRUE(says_q);
  EXPECT_EQ(says_mig, c.mig_mode == "Enabled");
}

INSTANTIATE_TEST_SUITE_P(RealCaptures, NvidiaSmiQCapture, ::testing::ValuesIn(kQCaptures));

// With -L recorded beside -q, the MIG devices are listed and sized by -q.
TEST(NvidiaSmiQ, QAndListGiveTheMigDevicesTheirSizes) {
  const std::string file = "nvidia-smi__linux-x86_64__nvidia-h100-mig__590.48.01.txt";
  auto whole = testing::slurp(testing::real_capture_path(file));
  if (!whole) GTEST_FAIL() << "real capture not found: " << file;
  auto q = testing::capture_section(*whole, "nvidia-smi -q");
  auto list = testing::capture_section(*whole, "nvidia-smi -L");
  ASSERT_TRUE(q && list);
  testing::FakeHost host;
  host.tools[cuda_q_argv()] = ok(*q);
  host.tools[cuda_list_argv()] = ok(*list);
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 5u);
  EXPECT_TRUE(result.entries[0].partitioned);
  EXPECT_EQ(result.entries[1].partition->profile, "3g.40gb");
  EXPECT_EQ(result.entries[1].memory.total_bytes, 40448 * kMiB);
  EXPECT_EQ(result.entries[1].memory.free_bytes, 40423 * kMiB);
  EXPECT_EQ(result.entries[4].memory.total_bytes, 9984 * kMiB);
  for (const auto& w : result.warnings)
    EXPECT_EQ(w.message.find("is in MIG mode"), std::string::npos) << w.message;
}

// -q alone (no query, no -L, no mig -lgi): the H100's four MIG Device blocks
// are its MIG devices, ready, each with -q's own shared FB memory; the profile
// names come from the H100 80GB table by memory and SM count (40448 MiB with 60
// SMs is a 3g.40gb); no MIG UUID (-q prints none), and a warning says so.
TEST(NvidiaSmiQ, TheMigDevicesOfQAlone) {
  const std::string file = "nvidia-smi__linux-x86_64__nvidia-h100-mig__590.48.01.txt";
  auto q = q_section(file);
  if (!q) GTEST_FAIL() << "real capture not found (or no -q section): " << file;
  const auto parsed = parse_nvidia_smi_q(*q);
  ASSERT_EQ(parsed.gpus.size(), 1u);
  ASSERT_EQ(parsed.gpus[0].mig_devices.size(), 4u);
  EXPECT_EQ(parsed.gpus[0].mig_devices[0].sms, 60);
  EXPECT_EQ(parsed.gpus[0].mig_devices[3].sms, 16);
  testing::FakeHost host;
  host.tools[cuda_q_argv()] = ok(*q);
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 5u);
  EXPECT_TRUE(result.entries[0].partitioned);
  const std::vector<std::string> profiles = {"3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"};
  const std::vector<std::uint64_t> total = {40448, 20096, 9984, 9984};
  const std::vector<std::uint64_t> free = {40423, 20080, 9976, 9976};
  const std::vector<int> gi = {2, 3, 9, 10};
  for (std::size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    const Entry& mig = result.entries[i + 1];
    ASSERT_TRUE(mig.partition.has_value());
    EXPECT_EQ(mig.status, EntryStatus::ready);
    EXPECT_EQ(mig.partition->profile, profiles[i]);
    EXPECT_EQ(mig.name, "NVIDIA H100 80GB HBM3 MIG " + profiles[i]);
    EXPECT_EQ(mig.partition->gpu_instance_id, gi[i]);
    EXPECT_EQ(mig.partition->compute_instance_id, 0);
    EXPECT_EQ(mig.memory.total_bytes, total[i] * kMiB);
    EXPECT_EQ(mig.memory.free_bytes, free[i] * kMiB);
    EXPECT_EQ(mig.memory.source.rfind("nvidia-smi -q (the MIG device's shared FB memory", 0), 0u);
    EXPECT_EQ(mig.uuid, "");
    EXPECT_EQ(std::count(mig.provenance.begin(), mig.provenance.end(), "tool:nvidia-smi -q"), 1);
  }
  // Nothing but -q was asked: its sizes are exact, no table or -lgip needed.
  EXPECT_EQ(host.runs, (std::vector<std::vector<std::string>>{cuda_q_argv()}));
  bool says = false;
  for (const auto& w : result.warnings)
    says |= w.message.find("listed from -q alone, without MIG UUIDs") != std::string::npos;
  EXPECT_TRUE(says);
}

// A MIG device no table row names (a GPU without a table) keeps -q's memory
// and is called by its device index; on an A30 its table names it (an A30's
// 2g.12gb MIG devices show 11968 MiB and 28 SMs).
TEST(NvidiaSmiQ, QMigDeviceWithoutATableRowIsNamedByIndex) {
  for (const std::string product : {"NVIDIA A30X", "NVIDIA A30"}) {
    SCOPED_TRACE(product);
    const std::string text =
        "Driver Version : 570.1\n"
        "GPU 00000000:01:00.0\n"
        "    Product Name : " +
        product +
        "\n"
        "    MIG Mode\n"
        "        Current : Enabled\n"
        "    MIG Device\n"
        "        Index : 0\n"
        "        GPU Instance ID : 1\n"
        "        Compute Instance ID : 0\n"
        "        Device Attributes\n"
        "            Shared\n"
        "                Multiprocessor count : 28\n"
        "        Shared FB Memory Usage\n"
        "            Total : 11968 MiB\n"
        "            Free : 11955 MiB\n"
        "    FB Memory Usage\n"
        "        Total : 24576 MiB\n"
        "        Used : 0 MiB\n"
        "        Free : 24576 MiB\n";
    testing::FakeHost host;
    host.tools[cuda_q_argv()] = ok(text);
    auto result = CudaProbe().run(host);
    ASSERT_EQ(result.entries.size(), 2u);
    const bool table = product == "NVIDIA A30";
    EXPECT_EQ(result.entries[1].name, table ? "NVIDIA A30 MIG 2g.12gb" : product + " MIG device 0");
    EXPECT_EQ(result.entries[1].partition->profile, table ? "2g.12gb" : "");
    EXPECT_EQ(result.entries[1].memory.total_bytes, 11968 * kMiB);
  }
}

// `-a` is `-q`; a host that knows the query never reads GPUs from -q; "N/A"
// totals (GB10) mean the host's memory; hostile text gives no GPU, never a crash.
TEST(NvidiaSmiQ, DashAUnknownTotalsAndHostileText) {
  testing::FakeHost host;
  host.tools[{"nvidia-smi", "-a"}] =
      ok("Driver Version : 580.95.05\nGPU 0000000F:01:00.0\n    Product Name : NVIDIA GB10\n"
         "    FB Memory Usage\n        Total : N/A\n        Free : N/A\n");
  auto from_a = cuda_gpus_from_q(host, cuda_query_argv(cuda_query_fields()));
  ASSERT_TRUE(from_a);
  EXPECT_EQ(from_a->argv, (std::vector<std::string>{"nvidia-smi", "-a"}));
  ASSERT_EQ(from_a->query.gpus.size(), 1u);
  EXPECT_EQ(from_a->query.gpus[0].pci_bus_id, "000f:01:00.0");
  EXPECT_TRUE(from_a->query.gpus[0].memory_not_reported);
  host.tools[cuda_query_argv(cuda_query_fields())] = ok("");
  EXPECT_FALSE(cuda_gpus_from_q(host, cuda_query_argv(cuda_query_fields())));

  for (std::string_view bad :
       {"", "GPU\n", "GPU zz\n    Product Name : x\n", "    FB Memory Usage\n Total : 1 MiB\n",
        "GPU 0000:01:00.0\n    FB Memory Usage\n        Total : 99999999999999999999 MiB\n"}) {
    const auto q = parse_nvidia_smi_q(bad);
    const auto rows = query_rows_from_q(q);
    EXPECT_EQ(rows.gpus.size(), q.gpus.size());
    for (const auto& gpu : q.gpus) EXPECT_FALSE(gpu.total_bytes) << bad;
  }
}

}  // namespace
}  // namespace hwaccel
