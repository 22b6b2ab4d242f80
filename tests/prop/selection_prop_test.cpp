// Properties of reserve and selection over generated hosts, run through the
// real pipeline: generated snapshot -> SnapshotHost -> probes -> registry.
// ctest runs each with at least 1,000 cases (RC_PARAMS in tests/CMakeLists.txt);
// a failure prints the seed to reproduce it.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <chrono>
#include <random>
#include <thread>

#include "sim/generators.h"
#include "sim/synth.h"
#include "src/host/snapshot_host.h"
#include "src/registry/identity.h"
#include "src/registry/reserve.h"
#include "src/registry/saved_detection.h"
#include "src/registry/selection.h"
#include "src/report/detect_json.h"

namespace hwaccel {
namespace {

using sim::HostSpec;
namespace gen = sim::gen;

Detection detect_spec(const HostSpec& spec) {
  SnapshotHost host(sim::synthesize(spec));
  return detect(host);
}

rc::Gen<Reserve> reserve_gen() {
  return rc::gen::map(rc::gen::inRange<std::uint64_t>(0, 256000), [](std::uint64_t mib) {
    return Reserve{mib << 20, "flag"};
  });
}

bool offered(const Entry& e) {
  return e.status == EntryStatus::ready && !e.partitioned;
}

RC_GTEST_PROP(SelectionProps, NeverPicksWhatIsNotReadyAndPicksTheCpuOnlyWhenNothingElse, ()) {
  auto d = detect_spec(*gen::host_spec());
  apply_reserve(d, *reserve_gen());
  auto s = select_default(d);
  RC_ASSERT(s.entry.has_value());
  const Entry& chosen = d.entries[*s.entry];
  RC_ASSERT(chosen.status == EntryStatus::ready);
  bool any_accelerator = false;
  for (const auto& e : d.entries) any_accelerator |= (e.type != DeviceType::cpu && offered(e));
  RC_ASSERT((chosen.type == DeviceType::cpu) == !any_accelerator);
  RC_ASSERT(!s.reason.empty());
}

RC_GTEST_PROP(SelectionProps, NoSelectedAcceleratorHasLessFreeThanTheReserve, ()) {
  auto d = detect_spec(*gen::host_spec());
  Reserve reserve = *reserve_gen();
  apply_reserve(d, reserve);
  auto s = select_default(d);
  const Entry& chosen = d.entries[*s.entry];
  if (chosen.type != DeviceType::cpu && chosen.memory.free_bytes)
    RC_ASSERT(*chosen.memory.free_bytes >= reserve.bytes);
}

RC_GTEST_PROP(SelectionProps, RaisingTheReserveNeverMakesARefusedDeviceReady, ()) {
  auto spec = *gen::host_spec();
  auto low = detect_spec(spec), high = low;
  auto a = *rc::gen::inRange<std::uint64_t>(0, 200000),
       b = *rc::gen::inRange<std::uint64_t>(0, 200000);
  apply_reserve(low, Reserve{std::min(a, b) << 20, "flag"});
  apply_reserve(high, Reserve{std::max(a, b) << 20, "flag"});
  RC_ASSERT(low.entries.size() == high.entries.size());
  for (std::size_t i = 0; i < low.entries.size(); ++i)
    if (low.entries[i].status != EntryStatus::ready)
      RC_ASSERT(high.entries[i].status != EntryStatus::ready);
}

RC_GTEST_PROP(SelectionProps, AddingAReadyGpuNeverLeavesTheCpuSelected, ()) {
  auto spec = *gen::host_spec();
  spec.drivers["nvidia"].state = sim::DriverState::ok;
  sim::AcceleratorSpec roomy;
  roomy.sku = "h100-sxm";  // 81007 MiB free when idle
  spec.accelerators.push_back(roomy);
  auto d = detect_spec(spec);
  apply_reserve(d, Reserve{});
  auto s = select_default(d);
  RC_ASSERT(d.entries[*s.entry].type != DeviceType::cpu);
}

RC_GTEST_PROP(SelectionProps, PhysicalCountMatchesTheGeneratedGpus, ()) {
  auto spec = *gen::host_spec();
  auto d = detect_spec(spec);
  auto counted = count_physical_accelerators(d.entries, false);
  const bool all_ok = spec.drivers["nvidia"].state == sim::DriverState::ok &&
                      spec.drivers["amdgpu"].state == sim::DriverState::ok;
  if (all_ok)
    RC_ASSERT(counted == gen::device_count(spec));
  else
    RC_ASSERT(counted <= gen::device_count(spec));
}

// Twins (one card through two APIs) are built by hand: this build's probes
// see each GPU through one API only.
RC_GTEST_PROP(SelectionProps, TwinsCountOnceAndShareTheReserveVerdict, ()) {
  auto d = detect_spec(*gen::host_spec());
  std::vector<Entry> twins;
  for (const auto& e : d.entries) {
    if (e.type == DeviceType::cpu || !*rc::gen::arbitrary<bool>()) continue;
    Entry twin = e;
    twin.backend = "vulkan";
    twin.api = "vulkan";
    twin.memory.free_bytes.reset();  // Vulkan without the budget extension
    twins.push_back(twin);
  }
  auto before = count_physical_accelerators(d.entries, false);
  d.entries.insert(d.entries.end(), twins.begin(), twins.end());
  RC_ASSERT(count_physical_accelerators(d.entries, false) == before);
  apply_reserve(d, *reserve_gen());
  for (const auto& e : d.entries) {
    if (e.type == DeviceType::cpu || !e.reason ||
        e.reason->code != ReasonCode::reserve_exceeds_free)
      continue;
    for (const auto& other : d.entries)
      if (other.physical_id == e.physical_id) RC_ASSERT(other.status != EntryStatus::ready);
  }
}

rc::Gen<Request> request_gen() {
  return rc::gen::build<Request>(
      rc::gen::set(&Request::device, rc::gen::element<std::string>(
                                         "", "cuda:0", "cuda:3", "cpu:0", "pci:0000:18:00.0",
                                         "pci:28:00.0", "rocm:0", "vulkan:0")),
      rc::gen::set(&Request::backend,
                   rc::gen::element<std::string>("", "", "cuda", "rocm", "cpu", "vulkan")),
      rc::gen::set(&Request::requirements,
                   rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 3), [](std::size_t n) {
                     return rc::gen::container<std::vector<Requirement>>(
                         n, rc::gen::map(
                                rc::gen::element<std::string>("gpu", "npu", "accelerator",
                                                              "mem>=8G", "mem>=100G", "mem>=1K"),
                                [](const std::string& t) { return *parse_requirement(t); }));
                   })));
}

RC_GTEST_PROP(SelectionProps, ARequestIsSatisfiedByAMatchOrRefused, ()) {
  auto d = detect_spec(*gen::host_spec());
  apply_reserve(d, *reserve_gen());
  Request request = *request_gen();
  auto r = resolve_request(d, request, backend_names());
  if (r.outcome != RequestOutcome::selected) {
    RC_ASSERT(!r.entry.has_value());
    RC_ASSERT(!r.message.empty());
    if (!request.backend.empty() || request.device.rfind("vulkan", 0) == 0) {
      std::string b = request.backend.empty() ? "vulkan" : request.backend;
      bool compiled = false;
      for (const auto& n : backend_names()) compiled |= n == b;
      if (!compiled && (request.backend.empty() || request.device.empty() ||
                        request.device.rfind(request.backend + ":", 0) == 0))
        RC_ASSERT(r.outcome == RequestOutcome::not_compiled);
    }
    return;
  }
  RC_ASSERT(r.entry.has_value());
  const Entry& e = d.entries[*r.entry];
  RC_ASSERT(offered(e));
  if (!request.backend.empty()) RC_ASSERT(e.backend == request.backend);
  if (!request.device.empty() && request.device.rfind("pci:", 0) != 0)
    RC_ASSERT(entry_label(e) == request.device);
  for (const auto& req : request.requirements) {
    if (req.kind == Requirement::Kind::type) RC_ASSERT(e.type == req.type);
    if (req.kind == Requirement::Kind::accelerator) RC_ASSERT(e.type != DeviceType::cpu);
    if (req.kind == Requirement::Kind::min_memory) {
      auto m = e.memory.free_bytes ? e.memory.free_bytes : e.memory.total_bytes;
      RC_ASSERT(m && *m >= req.bytes);
    }
  }
}

// A host whose answers come back after random short delays, so that probes
// finish in a different order from run to run.
class JitterHost : public SnapshotHost {
 public:
  JitterHost(Snapshot s, unsigned seed) : SnapshotHost(std::move(s)), rng_(seed) {}
  Result<std::string> read(std::string_view p) override {
    pause();
    return SnapshotHost::read(p);
  }
  ToolRun run(const std::vector<std::string>& argv, Timeout t) override {
    pause();
    return SnapshotHost::run(argv, t);
  }

 private:
  void pause() {
    int us;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      us = std::uniform_int_distribution<int>(0, 300)(rng_);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(us));
  }
  std::mutex mutex_;
  std::mt19937 rng_;
};

RC_GTEST_PROP(SelectionProps, ResultsDoNotDependOnTheOrderProbesFinish, ()) {
  auto snapshot = sim::synthesize(*gen::host_spec());
  SnapshotHost plain(snapshot);
  JitterHost jitter(snapshot, *rc::gen::arbitrary<unsigned>());
  RC_ASSERT(render_detect_json(detect(plain)) == render_detect_json(detect(jitter)));
}

RC_GTEST_PROP(SelectionProps, JsonOutInOutIsIdentical, ()) {
  auto d = detect_spec(*gen::host_spec());
  std::string first = render_detect_json(d);
  auto back = detection_from_json_text(first);
  RC_ASSERT(back.detection.has_value());
  RC_ASSERT(render_detect_json(*back.detection) == first);
}

}  // namespace
}  // namespace hwaccel
