// MIG sizes when nothing the host runs tells them (no -q, no table block, no
// -lgip): the GPU's MIG profile table (src/catalog/mig_profiles.h) gives them
// to the MiB; a GPU without a table keeps the profile name's estimate and says so.
#include "src/probe/cuda_mig_sizes.h"

#include <gtest/gtest.h>

#include "src/probe/cuda_probe.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kMiB = 1048576;

ToolRun ok(std::string out) {
  ToolRun run;
  run.out = std::move(out);
  return run;
}

ToolRun refused() {
  ToolRun run;
  run.exit_code = 4;
  run.out = "Insufficient Permissions\n";
  return run;
}

// One GPU in MIG mode, `name` with `total_mib`; every follow-up nvidia-smi refuses.
testing::FakeHost mig_host(const std::string& name, int total_mib,
                           const std::vector<std::string>& profiles) {
  testing::FakeHost host;
  host.tools[cuda_query_argv(cuda_query_fields())] =
      ok("index, uuid, pci.bus_id, name, memory.total [MiB], memory.used [MiB], memory.free [MiB], "
         "compute_cap, driver_version\n"
         "0, GPU-0aaa, 00000000:83:00.0, " +
         name + ", " + std::to_string(total_mib) + " MiB, 0 MiB, " + std::to_string(total_mib) +
         " MiB, 9.0, 570.124.06\n");
  std::string list = "GPU 0: " + name + " (UUID: GPU-0aaa)\n";
  for (std::size_t i = 0; i < profiles.size(); ++i)
    list += "  MIG " + profiles[i] + "     Device  " + std::to_string(i) + ": (UUID: MIG-" +
            std::to_string(i) + "bbb)\n";
  host.tools[cuda_list_argv()] = ok(list);
  host.tools[cuda_q_argv()] = refused();
  host.tools[cuda_table_argv()] = refused();
  host.tools[cuda_mig_lgip_argv()] = refused();
  return host;
}

bool warned_estimated(const ProbeResult& result) {
  for (const auto& w : result.warnings)
    if (w.message.rfind("MIG sizes estimated from the profile names", 0) == 0) return true;
  return false;
}

// The case: an H200 (143771 MiB, as the real capture's query says)
// whose 1g.18gb was 18e9 bytes (16.76 GiB) from the name; -lgip prints 16.00.
TEST(CudaMigSizes, AnH200WithoutAnyQueryGetsItsProfileTableSizes) {
  auto host = mig_host("NVIDIA H200", 143771, {"1g.18gb", "3g.71gb", "7g.141gb"});
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 4u);
  EXPECT_EQ(result.entries[1].memory.total_bytes, 16384 * kMiB);
  EXPECT_FALSE(result.entries[1].memory.free_bytes);
  EXPECT_EQ(result.entries[1].memory.source,
            "the H200 141GB MIG profile table (profile 1g.18gb: 16384 MiB, as nvidia-smi mig "
            "-lgip prints it on that GPU; free unknown)");
  EXPECT_EQ(result.entries[2].memory.total_bytes, 71168 * kMiB);   // 69.50 GiB
  EXPECT_EQ(result.entries[3].memory.total_bytes, 143104 * kMiB);  // 139.75 GiB
  EXPECT_FALSE(warned_estimated(result));
  // The tools were still asked first: they know the used memory, the table does not.
  EXPECT_NE(std::find(host.runs.begin(), host.runs.end(), cuda_mig_lgip_argv()), host.runs.end());
}

// A compute instance smaller than its GPU instance shares that instance's
// memory with its siblings: not sized from the table (as with -lgip).
TEST(CudaMigSizes, ComputeInstancesStayEstimated) {
  auto host = mig_host("NVIDIA H200", 143771, {"1c.3g.71gb", "1g.18gb"});
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 3u);
  EXPECT_EQ(result.entries[1].memory.source.rfind("estimated from the profile name 1c.3g.71gb", 0),
            0u);
  EXPECT_EQ(result.entries[2].memory.total_bytes, 16384 * kMiB);
  EXPECT_TRUE(warned_estimated(result));
}

// No table row for a profile the GPU's table lacks (a GH200 96GB names its 1g
// "1g.12gb"), nor a table for a name whose memory does not match the table's SKU:
// the name's GB, said so.
TEST(CudaMigSizes, NoTableKeepsTheEstimateAndSaysWhy) {
  for (const auto& [name, mib] : std::vector<std::pair<std::string, int>>{
           {"NVIDIA GH200 480GB", 97871}, {"NVIDIA H200", 97871}}) {
    SCOPED_TRACE(name);
    auto host = mig_host(name, mib, {"1g.18gb"});
    auto result = CudaProbe().run(host);
    ASSERT_EQ(result.entries.size(), 2u);
    EXPECT_EQ(result.entries[1].memory.total_bytes, 18'000'000'000ull);
    EXPECT_EQ(result.entries[1].memory.source.rfind("estimated from the profile name 1g.18gb", 0),
              0u);
    EXPECT_TRUE(warned_estimated(result));
  }
}

// A partial table (the rows a public -lgip shows) sizes its profiles; a profile
// it lacks keeps the name's estimate, said so. GH200 144G: mig-parted pull 139's
// -lgip prints 1g.18gb as 17.50 GiB = 17920 MiB.
TEST(CudaMigSizes, PartialTableSizesItsRowsAndEstimatesTheRest) {
  auto host = mig_host("NVIDIA GH200 144G HBM3e", 146831, {"1g.18gb", "3g.72gb"});
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 3u);
  EXPECT_EQ(result.entries[1].memory.total_bytes, 17920 * kMiB);
  EXPECT_EQ(result.entries[1].memory.source.rfind("the GH200 144GB MIG profile table", 0), 0u);
  EXPECT_EQ(result.entries[2].memory.total_bytes, 72'000'000'000ull);
  EXPECT_EQ(result.entries[2].memory.source.rfind("estimated from the profile name 3g.72gb", 0),
            0u);
  EXPECT_TRUE(warned_estimated(result));
}

// The GH200 96GB, A30 and H100 PCIe tables and the PCIe A100s' partial ones: the
// MiB their public -lgip prints (an A30's 1g.6gb and 2g.12gb MIG devices show 5952
// and 11968 MiB); the PCIe A100's 7g is not in its table and stays estimated.
TEST(CudaMigSizes, GH200A30H100PcieAndPcieA100Tables) {
  auto sized = [](const std::string& gpu, int mib, const std::vector<std::string>& profiles) {
    auto host = mig_host(gpu, mib, profiles);
    auto result = CudaProbe().run(host);
    std::string out;
    for (std::size_t i = 1; i < result.entries.size(); ++i)
      out += std::string(out.empty() ? "" : " ") +
             std::to_string(result.entries[i].memory.total_bytes.value_or(0) / kMiB);
    return out + (warned_estimated(result) ? " estimated" : "");
  };
  EXPECT_EQ(sized("NVIDIA GH200 480GB", 97871, {"1g.12gb", "1g.24gb", "7g.96gb"}),
            "11264 23552 95232");
  EXPECT_EQ(sized("NVIDIA A30", 24576, {"1g.6gb", "2g.12gb", "4g.24gb"}), "5952 11968 24000");
  EXPECT_EQ(sized("NVIDIA H100 PCIe", 81559, {"1g.20gb", "3g.40gb"}), "20096 40448");
  EXPECT_EQ(sized("NVIDIA A100-PCIE-40GB", 40960, {"1g.5gb", "7g.40gb"}),
            "4864 38146 estimated");  // 40e9 bytes
  EXPECT_EQ(sized("NVIDIA A100 80GB PCIe", 81920, {"2g.20gb"}), "19968");
}

// B200 and GB200: the figures instances show (gpu-operator issue 2155: a B200's
// 1g.23gb has 20992 MiB; mig-parted issue 227: a GB200's 1g.47gb 45.50 GiB).
TEST(CudaMigSizes, BlackwellPartialTables) {
  auto b200 = mig_host("NVIDIA B200", 183359, {"1g.23gb", "2g.45gb"});
  auto result = CudaProbe().run(b200);
  ASSERT_EQ(result.entries.size(), 3u);
  EXPECT_EQ(result.entries[1].memory.total_bytes, 20992 * kMiB);
  EXPECT_EQ(result.entries[2].memory.total_bytes, 45312 * kMiB);
  EXPECT_FALSE(warned_estimated(result));
  auto gb200 = mig_host("NVIDIA GB200", 189471, {"1g.47gb"});
  result = CudaProbe().run(gb200);
  ASSERT_EQ(result.entries.size(), 2u);
  EXPECT_EQ(result.entries[1].memory.total_bytes, 46592 * kMiB);
}

}  // namespace
}  // namespace hwaccel
