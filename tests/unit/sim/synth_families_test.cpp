// The families synthesised after the first ones (Apple, Vulkan, Intel and AMD NPUs,
// Intel GPUs, Qualcomm): each spec key changes what detection sees the way the
// real machine would (the presets test covers the fixture hosts themselves).
#include <gtest/gtest.h>

#include "sim/spec_reader.h"
#include "sim/synth.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"

namespace hwaccel::sim {
namespace {

Snapshot synth(const std::string& text) {
  HostSpec spec;
  auto error = parse_spec(text, "test.yaml", spec);
  EXPECT_FALSE(error) << error->to_string();
  return synthesize(spec);
}

struct Run {
  Detection d;
  std::vector<std::vector<std::string>> misses;
};

Run detect_text(const std::string& text) {
  SnapshotHost host(synth(text));
  Run r{detect(host), {}};
  r.misses = host.misses();
  return r;
}

const BackendStatus& backend(const Detection& d, const std::string& name) {
  for (const auto& b : d.backends)
    if (b.name == name) return b;
  static BackendStatus none;
  ADD_FAILURE() << "no backend " << name;
  return none;
}

std::vector<const Entry*> entries(const Detection& d, const std::string& name) {
  std::vector<const Entry*> out;
  for (const auto& e : d.entries)
    if (e.backend == name) out.push_back(&e);
  return out;
}

const std::string kHead =
    "schema: hwsim-spec/1\ncpu: {model: \"AMD EPYC 7B13\", uarch: zen3, cores: 8, threads: 2}\n";

TEST(SynthFamilies, VulkanWithoutAnyDriverIsTheLoadersFailure) {
  auto r = detect_text(kHead + "vulkan: {drivers: []}\n");
  EXPECT_EQ(backend(r.d, "vulkan").reason->code, ReasonCode::driver_not_found);
  EXPECT_TRUE(r.misses.empty());
}

TEST(SynthFamilies, NoVulkanKeyMeansNoLoader) {
  auto r = detect_text(kHead);
  EXPECT_EQ(backend(r.d, "vulkan").reason->code, ReasonCode::tool_not_found);
}

TEST(SynthFamilies, RadvListsTheAmdGpuAtItsBus) {
  auto r = detect_text(kHead +
                       "accelerators: [{sku: radeon-pro-w7900, bus: [\"03:00.0\"]}]\n"
                       "vulkan: {mesa: 24.2.8, drivers: [radv, llvmpipe]}\n");
  auto vk = entries(r.d, "vulkan");
  ASSERT_EQ(vk.size(), 2u);
  EXPECT_EQ(vk[0]->name, "AMD Radeon PRO W7900 (RADV RADEON-PRO-W7900)");
  EXPECT_EQ(vk[0]->pci_bus_id, "0000:03:00.0");
  EXPECT_EQ(vk[0]->status, EntryStatus::ready);
  EXPECT_EQ(vk[1]->status, EntryStatus::unavailable);  // llvmpipe is no accelerator
  EXPECT_TRUE(r.misses.empty());
}

TEST(SynthFamilies, NpuNodeDeniedIsPermissionDenied) {
  auto ok = detect_text(kHead + "accelerators: [npu3720]\n");
  auto denied = detect_text(kHead + "accelerators: [{sku: npu3720, node: denied}]\n");
  ASSERT_EQ(entries(ok.d, "intel_npu").size(), 1u);
  EXPECT_EQ(entries(ok.d, "intel_npu")[0]->status, EntryStatus::ready);
  ASSERT_EQ(entries(denied.d, "intel_npu").size(), 1u);
  EXPECT_EQ(entries(denied.d, "intel_npu")[0]->reason->code, ReasonCode::permission_denied);
  EXPECT_TRUE(ok.misses.empty());
  EXPECT_TRUE(denied.misses.empty());
}

TEST(SynthFamilies, NpuWithoutItsDriverIsNotReady) {
  auto r = detect_text(kHead + "accelerators: [xdna2-strix]\ndrivers: {amdxdna: missing}\n");
  EXPECT_FALSE(backend(r.d, "amd_xdna").ready);
}

TEST(SynthFamilies, QualcommCardsShareTheAccelClassWithNpus) {
  auto s = synth(kHead + "accelerators: [ai100 x2, npu3720]\n");
  EXPECT_TRUE(s.files.count("/sys/class/accel/accel0/device"));
  EXPECT_TRUE(s.files.count("/sys/class/accel/accel1/device"));
  EXPECT_TRUE(s.files.count("/sys/class/accel/accel2/device"));
  SnapshotHost host(std::move(s));
  Detection d = detect(host);
  EXPECT_EQ(entries(d, "qualcomm").size(), 2u);
  EXPECT_EQ(entries(d, "intel_npu").size(), 1u);
  EXPECT_TRUE(host.misses().empty());
}

TEST(SynthFamilies, QualcommFreeMemoryFollowsTheSpec) {
  auto r = detect_text(kHead + "accelerators: [{sku: ai100, free: 10000 MiB, nsp_free: 4}]\n");
  auto q = entries(r.d, "qualcomm");
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0]->memory.free_bytes, std::uint64_t{10000} << 20);
}

TEST(SynthFamilies, IntelDataCenterGpusComeWithXpuSmiAndLocalMemory) {
  auto r = detect_text(kHead + "accelerators: [max-1550 x2]\n");
  auto g = entries(r.d, "oneapi");
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0]->memory.total_bytes, std::uint64_t{137405399040});
  EXPECT_EQ(g[0]->memory.kind, MemoryKind::discrete);
  EXPECT_TRUE(r.misses.empty());
  auto without = detect_text(kHead + "accelerators: [max-1550]\ntools: []\n");
  EXPECT_EQ(entries(without.d, "oneapi").size(), 1u);
  EXPECT_TRUE(without.misses.empty());
}

TEST(SynthFamilies, MacWithoutProcOrSys) {
  auto s = synth(
      "schema: hwsim-spec/1\nos: darwin\ncpu: {model: Apple M3 Max, uarch: apple-silicon, cores: "
      "16}\nmemory: {total: 128 GiB}\naccelerators: [m3-max]\n");
  EXPECT_EQ(s.facts.os, "darwin");
  EXPECT_EQ(s.facts.arch, "arm64");
  EXPECT_EQ(s.files.at("/proc/cpuinfo").kind, FileEntry::Kind::absent);
  SnapshotHost host(std::move(s));
  Detection d = detect(host);
  auto apple = entries(d, "apple");
  ASSERT_EQ(apple.size(), 2u);  // the GPU and the Neural Engine
  EXPECT_EQ(apple[0]->memory.total_bytes, std::uint64_t{128} << 30);
  EXPECT_TRUE(host.misses().empty());
}

TEST(SynthFamilies, NouveauHoldsTheGpu) {
  auto r = detect_text(kHead +
                       "accelerators: [rtx3090]\n"
                       "drivers: {nvidia: {state: missing, bound_to: nouveau}}\ntools: []\n");
  auto cuda = entries(r.d, "cuda");
  ASSERT_EQ(cuda.size(), 1u);
  EXPECT_NE(cuda[0]->reason->detail.find("nouveau"), std::string::npos) << cuda[0]->reason->detail;
}

}  // namespace
}  // namespace hwaccel::sim
