// Tool output cut in the middle or repeated up to the host's limit (the fault
// matrix's "output cut in the middle" and "64 MiB of output" cells) on the real
// fixture hosts: the devices the machine has are kept, once each, with the right
// reason or a warning; never a device counted twice or a reason that blames the
// devices for the tool's output.
#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "src/probe/cuda_probe.h"
#include "src/probe/neuron_probe.h"
#include "src/probe/qualcomm_probe.h"
#include "src/probe/rocm_probe.h"
#include "src/probe/vulkan_probe.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

Snapshot fixture(const std::string& name) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + name + ".yaml"));
  EXPECT_FALSE(loaded.error) << loaded.error->to_string();
  return *loaded.snapshot;
}

ToolRun& tool(Snapshot& s, const std::string& program) {
  for (auto& [argv, entry] : s.tools)
    if (!argv.empty() && argv[0] == program && entry.run.outcome == ToolOutcome::exited &&
        !entry.run.out.empty())
      return entry.run;
  ADD_FAILURE() << "no recorded run of " << program;
  static ToolRun none;
  return none;
}

void flood(ToolRun& run, std::size_t bytes) {
  std::string big;
  while (big.size() < bytes) big += run.out;
  big.resize(bytes);
  run.out = std::move(big);
  run.truncated = true;
}

bool has_warning(const ProbeResult& r, const std::string& text) {
  for (const auto& w : r.warnings)
    if (w.message.find(text) != std::string::npos) return true;
  return false;
}

int ready(const ProbeResult& r) {
  int n = 0;
  for (const auto& e : r.entries) n += e.status == EntryStatus::ready;
  return n;
}

TEST(CutOutput, NeuronLsCutShortKeepsTheDriversDevices) {
  Snapshot s = fixture("inf2-48xlarge");
  ToolRun& run = tool(s, "neuron-ls");
  run.out.resize(run.out.size() / 2);
  SnapshotHost host(s);
  auto r = NeuronProbe().run(host);
  EXPECT_TRUE(r.backend.ready);
  EXPECT_EQ(r.entries.size(), 12u);
  EXPECT_EQ(ready(r), 12);
  EXPECT_TRUE(has_warning(r, "neuron-ls printed no JSON array"));
}

TEST(FloodedOutput, NeuronLsFloodKeepsTheDriversDevicesAndSaysItWasCut) {
  Snapshot s = fixture("inf2-48xlarge");
  flood(tool(s, "neuron-ls"), 1 << 20);
  SnapshotHost host(s);
  auto r = NeuronProbe().run(host);
  EXPECT_TRUE(r.backend.ready);
  EXPECT_EQ(ready(r), 12);
  EXPECT_TRUE(has_warning(r, "cut at the host's output limit"));
}

TEST(FloodedOutput, VulkaninfoFloodListsEachDeviceOnce) {
  Snapshot clean = fixture("vulkan-desktop");
  SnapshotHost clean_host(clean);
  auto expected = VulkanProbe().run(clean_host);
  Snapshot s = clean;
  flood(tool(s, "vulkaninfo"), 1 << 20);
  SnapshotHost host(s);
  auto r = VulkanProbe().run(host);
  ASSERT_EQ(r.entries.size(), expected.entries.size());
  for (std::size_t i = 0; i < r.entries.size(); ++i)
    EXPECT_EQ(r.entries[i].physical_id, expected.entries[i].physical_id);
  EXPECT_TRUE(has_warning(r, "the output starts over"));
}

TEST(FloodedOutput, QaicUtilFloodListsEachCardOnce) {
  Snapshot s = fixture("qualcomm-ai100");
  flood(tool(s, "/opt/qti-aic/tools/qaic-util"), 1 << 20);
  SnapshotHost host(s);
  auto r = QualcommProbe().run(host);
  EXPECT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(ready(r), 2);
  EXPECT_TRUE(has_warning(r, "repeated QID block(s) ignored"));
}

TEST(CutOutput, NvidiaSmiCutBeforeItsOnlyRowIsProbeFailedNotNoDevice) {
  Snapshot s = fixture("gx10");
  for (auto& [argv, entry] : s.tools)
    if (argv == cuda_query_argv(cuda_query_fields()))
      entry.run.out.resize(entry.run.out.size() / 2);
  SnapshotHost host(s);
  auto r = CudaProbe().run(host);
  EXPECT_FALSE(r.backend.ready);
  ASSERT_TRUE(r.backend.reason);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::probe_failed);
  EXPECT_NE(r.backend.reason->detail.find("nvidia-smi listed no GPU it could read"),
            std::string::npos);
}

TEST(CutOutput, GpusTheNvidiaDriverHoldsButNvidiaSmiLeftOutAreProbeFailed) {
  Snapshot s = fixture("dgx-h100");
  for (auto& [argv, entry] : s.tools)
    if (argv == cuda_query_argv(cuda_query_fields()))
      entry.run.out.resize(entry.run.out.size() / 2);
  SnapshotHost host(s);
  auto r = CudaProbe().run(host);
  for (const auto& e : r.entries) {
    if (e.status == EntryStatus::ready) continue;
    ASSERT_TRUE(e.reason);
    EXPECT_EQ(e.reason->code, ReasonCode::probe_failed)
        << e.physical_id << ": " << e.reason->detail;
  }
}

TEST(DeniedFiles, RocmKfdThatCannotBeListedIsPermissionDenied) {
  Snapshot s = fixture("mi300x-8");
  s.files["/sys/class/kfd/kfd/topology/nodes"] = FileEntry::of_error(EACCES);
  SnapshotHost host(s);
  auto r = RocmProbe().run(host);
  EXPECT_FALSE(r.backend.ready);
  ASSERT_TRUE(r.backend.reason);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::permission_denied);
  EXPECT_NE(r.backend.reason->detail.find("cannot be listed (EACCES)"), std::string::npos);
}

}  // namespace
}  // namespace hwaccel
