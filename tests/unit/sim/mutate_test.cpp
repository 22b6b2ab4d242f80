// Every fault kind of `hwsim mutate`, applied to a hand-written fixture host,
// and what the detector reports for it: the reason code, the warning, or the
// reserve refusal a real host with that fault gives.
#include "sim/mutate.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <cerrno>

#include "sim/presets.h"
#include "sim/spec_reader.h"
#include "sim/synth.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "src/registry/reserve.h"
#include "tests/support/test_support.h"

namespace hwaccel::sim {
namespace {

Snapshot fixture(const std::string& name) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + name + ".yaml"));
  EXPECT_FALSE(loaded.error) << loaded.error->to_string();
  return *loaded.snapshot;
}

Fault fault(const std::string& text) {
  std::string why;
  auto f = parse_fault(text, why);
  EXPECT_TRUE(f) << text << ": " << why;
  return f.value_or(Fault{});
}

Snapshot mutated(const std::string& name, const std::vector<std::string>& faults) {
  Snapshot s = fixture(name);
  std::vector<Fault> parsed;
  for (const auto& f : faults) parsed.push_back(fault(f));
  auto result = apply_faults(s, parsed);
  EXPECT_TRUE(result.ok()) << result.errors.front();
  return s;
}

Detection detect_on(const Snapshot& s) {
  SnapshotHost host(s);
  return detect(host);
}

const BackendStatus& backend(const Detection& d, const std::string& name) {
  for (const auto& b : d.backends)
    if (b.name == name) return b;
  ADD_FAILURE() << "no backend " << name;
  static BackendStatus none;
  return none;
}

std::vector<const Entry*> entries_of(const Detection& d, const std::string& backend_name) {
  std::vector<const Entry*> out;
  for (const auto& e : d.entries)
    if (e.backend == backend_name) out.push_back(&e);
  return out;
}

bool has_warning(const Detection& d, const std::string& backend_name, const std::string& text) {
  for (const auto& w : d.warnings)
    if (w.backend == backend_name && w.message.find(text) != std::string::npos) return true;
  return false;
}

std::string warnings_of(const Detection& d) {
  std::string all;
  for (const auto& w : d.warnings) all += w.backend + ": " + w.message + "\n";
  return all;
}

// The CUDA backend is down with `code`, and each of the eight H100s on the bus
// is a line of its own with that code: the cpu and rocm lines do not change.
void expect_cuda_down(const Detection& d, ReasonCode code, const std::string& detail_part) {
  const auto& cuda = backend(d, "cuda");
  ASSERT_FALSE(cuda.ready);
  ASSERT_TRUE(cuda.reason);
  EXPECT_EQ(cuda.reason->code, code) << cuda.reason->detail;
  EXPECT_NE(cuda.reason->detail.find(detail_part), std::string::npos) << cuda.reason->detail;
  auto gpus = entries_of(d, "cuda");
  EXPECT_EQ(gpus.size(), 8u);
  for (const auto* e : gpus) {
    EXPECT_EQ(e->status, EntryStatus::unavailable);
    ASSERT_TRUE(e->reason);
    EXPECT_EQ(e->reason->code, code);
  }
  EXPECT_TRUE(backend(d, "cpu").ready);
}

TEST(MutateTool, HangIsATimeout) {
  auto d = detect_on(mutated("dgx-h100", {"hang:nvidia-smi"}));
  expect_cuda_down(d, ReasonCode::timeout, "did not answer");
}

TEST(MutateTool, KilledBySignalIsAProbeFailureNamingTheSignal) {
  auto d = detect_on(mutated("dgx-h100", {"signal:nvidia-smi=SEGV"}));
  expect_cuda_down(d, ReasonCode::probe_failed, "killed by signal 11");
}

TEST(MutateTool, ExitWithStderrCarriesTheToolsWords) {
  auto d = detect_on(mutated(
      "dgx-h100", {"exit:nvidia-smi=15:Unable to determine the device handle for GPU0000:1B:00.0: "
                   "Unknown Error"}));
  expect_cuda_down(d, ReasonCode::probe_failed, "Unable to determine the device handle");
}

TEST(MutateTool, ExitWithAKnownErrorIsClassifiedLikeTheRealOne) {
  auto d = detect_on(
      mutated("dgx-h100", {"exit:nvidia-smi=18:Failed to initialize NVML: Driver/library version "
                           "mismatch"}));
  expect_cuda_down(d, ReasonCode::probe_failed, "Driver/library version mismatch");
  auto denied = detect_on(mutated(
      "dgx-h100", {"exit:nvidia-smi=4:Failed to initialize NVML: Insufficient Permissions"}));
  expect_cuda_down(denied, ReasonCode::permission_denied, "Insufficient Permissions");
}

TEST(MutateTool, MissingToolIsToolNotFoundWithTheDriverStillBound) {
  auto d = detect_on(mutated("dgx-h100", {"missing:nvidia-smi"}));
  expect_cuda_down(d, ReasonCode::tool_not_found, "nvidia-smi not found");
}

TEST(MutateTool, DeniedToolIsPermissionDenied) {
  auto d = detect_on(mutated("dgx-h100", {"denied:nvidia-smi"}));
  expect_cuda_down(d, ReasonCode::permission_denied, "may not be run");
}

TEST(MutateTool, EmptyOutputIsAProbeFailure) {
  auto d = detect_on(mutated("dgx-h100", {"empty:nvidia-smi"}));
  expect_cuda_down(d, ReasonCode::probe_failed, "printed nothing");
}

TEST(MutateTool, GarbageOutputIsAProbeFailure) {
  auto d = detect_on(mutated("dgx-h100", {"garbage:nvidia-smi"}));
  expect_cuda_down(d, ReasonCode::probe_failed, "");
}

// The hand-written dgx-h100 has no /sys/.../driver links; the synthesised one
// has them, as a real host does, so an unlisted GPU is "bound but not listed".
Snapshot synthesized(const std::string& preset) {
  HostSpec spec;
  auto error = parse_spec(*preset_spec(preset), preset, spec);
  EXPECT_FALSE(error) << error->to_string();
  return synthesize(spec);
}

TEST(MutateTool, TruncatedQueryLosesTheCutGpusWithAReason) {
  // Cut inside the fifth row: GPUs 0-3 stay, the rest are on the bus but unlisted.
  Snapshot s = synthesized("dgx-h100");
  // The probe's query (its memory figures; the idle-figures query is another).
  auto probe_query = std::find_if(s.tools.begin(), s.tools.end(), [](const auto& t) {
    return t.first.size() == 3 && t.first[1].rfind("--query-gpu=index", 0) == 0 &&
           t.first[1].find("memory.free") != std::string::npos;
  });
  ASSERT_NE(probe_query, s.tools.end());
  const auto argv = probe_query->first;
  const std::string& out = probe_query->second.run.out;
  const auto cut = out.find("\n4, GPU-") + 20;
  auto result = apply_faults(s, {fault("truncate:" + argv[0] + " " + argv[1] + " " + argv[2] +
                                       " = " + std::to_string(cut))});
  ASSERT_TRUE(result.ok()) << result.errors.front();
  auto d = detect_on(s);
  auto gpus = entries_of(d, "cuda");
  ASSERT_EQ(gpus.size(), 8u) << warnings_of(d);
  int ready = 0;
  for (const auto* e : gpus) {
    if (e->status == EntryStatus::ready) {
      ++ready;
      continue;
    }
    ASSERT_TRUE(e->reason);
    EXPECT_EQ(e->reason->code, ReasonCode::probe_failed) << e->reason->detail;
    EXPECT_NE(e->reason->detail.find("nvidia-smi does not list it"), std::string::npos);
  }
  EXPECT_EQ(ready, 4) << warnings_of(d);
  EXPECT_TRUE(has_warning(d, "cuda", "nvidia-smi")) << warnings_of(d);
}

TEST(MutateTool, FloodedOutputIsReadWithoutCrashing) {
  // 4 MiB of the matrix repeated: the first table is read, the rest ignored.
  auto d = detect_on(mutated("dgx-h100", {"flood:nvidia-smi topo -m = 4M"}));
  EXPECT_TRUE(backend(d, "cuda").ready);
  EXPECT_EQ(d.links.size(), 28u) << warnings_of(d);
}

TEST(MutateFile, UnreadableMeminfoIsAWarningNamingEacces) {
  auto d = detect_on(mutated("cpu-only", {"denied:/proc/meminfo"}));
  EXPECT_TRUE(backend(d, "cpu").ready);
  EXPECT_TRUE(has_warning(d, "cpu", "cannot read /proc/meminfo (EACCES)")) << warnings_of(d);
}

TEST(MutateFile, UnreadableKfdTopologyTakesTheRocmGpusDown) {
  auto d = detect_on(mutated("mi300x-8", {"eacces:/sys/class/kfd/kfd/topology/nodes"}));
  EXPECT_TRUE(has_warning(d, "rocm", "EACCES")) << warnings_of(d);
  EXPECT_FALSE(backend(d, "rocm").ready);
}

TEST(MutateFile, GoneMeminfoIsAWarningNamingEnoent) {
  auto d = detect_on(mutated("gx10", {"gone:/proc/meminfo"}));
  EXPECT_TRUE(has_warning(d, "cpu", "cannot read /proc/meminfo (ENOENT)")) << warnings_of(d);
  EXPECT_TRUE(has_warning(d, "cuda", "memory unknown")) << warnings_of(d);
}

TEST(MutateFile, ALinkLoopIsAWarningNamingEloop) {
  auto d = detect_on(mutated("cpu-only", {"loop:/proc/cpuinfo"}));
  EXPECT_TRUE(has_warning(d, "cpu", "cannot read /proc/cpuinfo (ELOOP)")) << warnings_of(d);
}

TEST(MutateFile, GarbageAndTruncatedFilesAreSurvived) {
  auto d = detect_on(mutated("mi300x-8", {"garbage:/sys/class/kfd/kfd/topology/nodes/2/properties",
                                          "truncate:/proc/cpuinfo=100", "empty:/proc/meminfo"}));
  EXPECT_TRUE(backend(d, "cpu").ready);
  EXPECT_EQ(entries_of(d, "rocm").size(), 8u);
}

TEST(MutateDriver, UnloadedNvidiaDriverIsDriverNotFoundWithTheRealText) {
  Snapshot s = mutated("dgx-h100", {"unload:nvidia"});
  for (const auto& [path, entry] : s.files) {
    EXPECT_NE(path.rfind("/proc/driver/nvidia", 0), 0u) << path;
    EXPECT_NE(path.rfind("/dev/nvidia", 0), 0u) << path;
  }
  auto d = detect_on(s);
  expect_cuda_down(d, ReasonCode::driver_not_found, "couldn't communicate with the NVIDIA driver");
  for (const auto* e : entries_of(d, "cuda"))
    EXPECT_NE(e->reason->detail.find("no driver bound"), std::string::npos) << e->reason->detail;
}

TEST(MutateDriver, UnloadedAmdgpuIsDriverNotFound) {
  Snapshot s = mutated("mi300x-8", {"unload:amdgpu"});
  EXPECT_EQ(s.files.count("/sys/class/kfd/kfd/topology/nodes/2/properties"), 0u);
  EXPECT_EQ(s.files.count("/sys/bus/pci/devices/0000:05:00.0/mem_info_vram_total"), 0u);
  EXPECT_EQ(s.files.count("/sys/bus/pci/devices/0000:05:00.0/vendor"), 1u);
  auto d = detect_on(s);
  const auto& rocm = backend(d, "rocm");
  ASSERT_FALSE(rocm.ready);
  ASSERT_TRUE(rocm.reason);
  EXPECT_EQ(rocm.reason->code, ReasonCode::driver_not_found) << rocm.reason->detail;
  auto gpus = entries_of(d, "rocm");
  EXPECT_EQ(gpus.size(), 8u);
  for (const auto* e : gpus) EXPECT_EQ(e->reason->code, ReasonCode::driver_not_found);
}

TEST(MutateMemory, LessFreeMemoryOnOneGpuFallsUnderTheReserve) {
  Snapshot s = mutated("dgx-h100", {"free:cuda:3=1G"});
  auto d = detect_on(s);
  auto gpus = entries_of(d, "cuda");
  ASSERT_EQ(gpus.size(), 8u);
  EXPECT_EQ(gpus[3]->memory.free_bytes, std::uint64_t{1} << 30);
  EXPECT_EQ(gpus[2]->memory.free_bytes, std::uint64_t{81007} << 20);
  apply_reserve(d, Reserve{});
  gpus = entries_of(d, "cuda");
  ASSERT_TRUE(gpus[3]->reason);
  EXPECT_EQ(gpus[3]->reason->code, ReasonCode::reserve_exceeds_free);
  EXPECT_EQ(gpus[2]->status, EntryStatus::ready);
}

TEST(MutateMemory, LessFreeMemoryOnTheHostAndAnAmdGpu) {
  auto d = detect_on(mutated("mi300x-8", {"free:host=2G", "free:rocm:0=512M"}));
  auto cpu = entries_of(d, "cpu");
  ASSERT_EQ(cpu.size(), 1u);
  EXPECT_EQ(cpu[0]->memory.free_bytes, std::uint64_t{2} << 30);
  auto gpus = entries_of(d, "rocm");
  ASSERT_EQ(gpus.size(), 8u);
  EXPECT_EQ(gpus[0]->memory.free_bytes, std::uint64_t{512} << 20);
  apply_reserve(d, Reserve{});
  gpus = entries_of(d, "rocm");
  ASSERT_TRUE(gpus[0]->reason);
  EXPECT_EQ(gpus[0]->reason->code, ReasonCode::reserve_exceeds_free);
  EXPECT_EQ(gpus[1]->status, EntryStatus::ready);
}

TEST(MutateErrors, AFaultThatMatchesNothingIsAnError) {
  Snapshot s = fixture("cpu-only");
  for (const char* text : {"hang:hl-smi", "gone:/sys/class/kfd", "unload:amdgpu", "free:cuda=1G",
                           "free:tpu=1G", "signal:nvidia-smi=WHAT", "exit:nvidia-smi=0"}) {
    auto r = apply_fault(s, fault(text));
    EXPECT_FALSE(r.ok()) << text;
    if (!r.ok()) {
      EXPECT_NE(r.errors[0].find(text), std::string::npos) << r.errors[0];
    }
  }
}

TEST(MutateErrors, BadFaultTextSaysWhatWasExpected) {
  std::string why;
  EXPECT_FALSE(parse_fault("explode:nvidia-smi", why));
  EXPECT_NE(why.find("KIND one of: hang"), std::string::npos) << why;
  EXPECT_FALSE(parse_fault("hang", why));
  EXPECT_NE(why.find("hang:TARGET"), std::string::npos) << why;
  EXPECT_FALSE(parse_fault("exit:nvidia-smi", why));
  EXPECT_NE(why.find("exit:TOOL=CODE"), std::string::npos) << why;
  auto f = parse_fault("hang:nvidia-smi --query-gpu=a,b --format=csv", why);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->target, "nvidia-smi --query-gpu=a,b --format=csv");
  EXPECT_EQ(f->arg, "");
  f = parse_fault("free:cuda:3=1G", why);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->target, "cuda:3");
  EXPECT_EQ(f->arg, "1G");
}

TEST(MutateErrors, EveryKindHasAName) {
  for (auto kind : all_fault_kinds()) EXPECT_EQ(fault_kind_from_string(to_string(kind)), kind);
}

}  // namespace
}  // namespace hwaccel::sim
