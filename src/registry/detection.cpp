#include "src/registry/detection.h"

#include <algorithm>
#include <exception>
#include <future>
#include <optional>
#include <set>

#include "src/host/memo_host.h"
#include "src/host/snapshot_host.h"
#include "src/host/stopwatch.h"
#include "src/probe/amd_xdna_probe.h"
#include "src/probe/apple_probe.h"
#include "src/probe/cpu_probe.h"
#include "src/probe/cuda_probe.h"
#include "src/probe/gaudi_probe.h"
#include "src/probe/intel_npu_probe.h"
#include "src/probe/neuron_probe.h"
#include "src/probe/oneapi_probe.h"
#include "src/probe/qualcomm_probe.h"
#include "src/probe/rocm_probe.h"
#include "src/probe/tpu_probe.h"
#include "src/probe/vulkan_probe.h"
#include "src/registry/build_backends.h"
#include "src/registry/cross_api_identity.h"
#include "src/registry/probe_gate.h"
#include "src/system/system_scan.h"

namespace hwaccel {

std::vector<std::unique_ptr<Probe>> all_probes() {
  std::vector<std::unique_ptr<Probe>> probes;
  probes.push_back(std::make_unique<CudaProbe>());
  probes.push_back(std::make_unique<RocmProbe>());
  probes.push_back(std::make_unique<AppleProbe>());
  probes.push_back(std::make_unique<VulkanProbe>());
  probes.push_back(std::make_unique<IntelNpuProbe>());
  probes.push_back(std::make_unique<AmdXdnaProbe>());
  probes.push_back(std::make_unique<OneapiProbe>());
  probes.push_back(std::make_unique<TpuProbe>());
  probes.push_back(std::make_unique<GaudiProbe>());
  probes.push_back(std::make_unique<NeuronProbe>());
  probes.push_back(std::make_unique<QualcommProbe>());
  probes.push_back(std::make_unique<CpuProbe>());
  return probes;
}

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const auto& p : all_probes())
    if (!is_left_out(p->name())) names.push_back(p->name());
  return names;
}

std::vector<std::string> reported_backend_names() {
  std::vector<std::string> names;
  for (const auto& p : all_probes()) names.push_back(p->name());
  return names;
}

namespace {

ProbeResult internal_error(const Probe& probe, std::string detail) {
  ProbeResult r;
  r.backend = {probe.name(), false, Reason{ReasonCode::probe_failed, std::move(detail)}};
  return r;
}

// A probe must not throw, but if one does (a bug), its backend still gets a
// line and the others are unaffected.
ProbeResult run_guarded(const Probe& probe, Host& host) {
  try {
    return probe.run(host);
  } catch (const std::exception& e) {
    return internal_error(probe, std::string("internal error: ") + e.what());
  } catch (...) {
    return internal_error(probe, "internal error");
  }
}

// The probe on the calling thread, through a ProbeGate: its result, or none
// when it asked to run a tool and must run again on a thread of its own (with
// the runs it asked for, already started).
struct InlineAttempt {
  std::optional<ProbeResult> result;
  std::vector<StartedTool> started;
};

InlineAttempt run_inline(const Probe& probe, Host& host) {
  ProbeGate gate(host);
  InlineAttempt attempt;
  try {
    ProbeResult r = probe.run(gate);
    if (!gate.wanted_a_tool()) attempt.result = std::move(r);  // else it swallowed the stop
  } catch (const ProbeWantsATool&) {
  } catch (const std::exception& e) {
    if (!gate.wanted_a_tool())
      attempt.result = internal_error(probe, std::string("internal error: ") + e.what());
  } catch (...) {
    if (!gate.wanted_a_tool()) attempt.result = internal_error(probe, "internal error");
  }
  attempt.started = gate.take_started();
  return attempt;
}

// A backend that lists one physical device twice (a tool whose output was
// repeated, or cut at the host's limit and re-sent) keeps the first listing:
// a device is never counted twice. Says so in one warning.
void drop_repeated_devices(ProbeResult& r) {
  std::set<std::string> seen;
  std::size_t dropped = 0;
  std::vector<Entry> kept;
  for (auto& e : r.entries) {
    if (!e.physical_id.empty() && !seen.insert(e.physical_id).second) {
      ++dropped;
      continue;
    }
    kept.push_back(std::move(e));
  }
  r.entries = std::move(kept);
  if (dropped > 0)
    r.warnings.push_back({r.backend.name, std::to_string(dropped) +
                                              " more listing(s) of devices already listed "
                                              "(same physical id) were ignored"});
}

// A flood of warnings (every line of a corrupt output) buries the one that
// matters; each backend keeps its first kMaxWarningsPerBackend and a count.
constexpr std::size_t kMaxWarningsPerBackend = 20;

void cap_warnings(ProbeResult& r) {
  if (r.warnings.size() <= kMaxWarningsPerBackend) return;
  std::size_t more = r.warnings.size() - kMaxWarningsPerBackend;
  r.warnings.resize(kMaxWarningsPerBackend);
  r.warnings.push_back({r.backend.name, "... and " + std::to_string(more) + " more warnings"});
}

}  // namespace

Detection detect(Host& machine, const DetectOptions& options) {
  Stopwatch whole;
  // A replayed snapshot answers every run() at once: no thread is ever needed.
  const bool instant = dynamic_cast<SnapshotHost*>(&machine) != nullptr;
  // Backends ask the same questions (the PCI bus, /proc/cpuinfo): each file is
  // read from the machine once per detection. A snapshot answers from memory
  // already, the same answer every time, without a copy: asked directly (its
  // memo's thousand-odd entries were 5 % of `detect --host dgx-h100`). The
  // host says so by keeping findings (Host::findings): a SnapshotHost itself,
  // not one derived from it, which may answer anew each time (the reliability
  // tests' flapping and jittering hosts); a memo keeps a detection to one answer.
  const bool unchanging = machine.findings() != nullptr;
  std::optional<MemoHost> own_memo;
  Host& host = unchanging ? machine : options.memo ? *options.memo : own_memo.emplace(machine);
  auto probes = all_probes();
  std::vector<const Probe*> selected;
  for (const auto& p : probes) {
    bool wanted = options.only.empty() || std::find(options.only.begin(), options.only.end(),
                                                    p->name()) != options.only.end();
    if (wanted) selected.push_back(p.get());
  }

  Detection d;
  d.host.facts = host.facts();
  d.host.discovered_at = host.now();

  // The host's CPUs, memory and cgroup limits, scanned once for the CPU probe and
  // the system section (issue 37: each scanned them, two passes over /proc/cpuinfo
  // each). Files only. A scan that throws (a bug) leaves both to scan for
  // themselves and fail where they did before.
  std::optional<ScannedResources> resources;
  Stopwatch resources_watch;
  try {
    resources = scan_resources(host);
  } catch (...) {
    resources.reset();
  }
  const double resources_ms = resources_watch.elapsed_ms();
  for (const auto& p : probes)
    if (auto* cpu = dynamic_cast<CpuProbe*>(p.get()))
      cpu->share_resources(resources ? &resources->resources : nullptr);

  // Probes that only read files run here, one after the other (threads cost more
  // than their work). A probe that runs a tool gets a thread, started as soon as
  // it asks, so a hung tool costs its own timeout, not the sum; on a replay,
  // where tools answer at once, everything runs here.
  struct Timed {
    ProbeResult result;
    double milliseconds;
  };
  std::vector<std::optional<Timed>> done(selected.size());
  std::vector<std::future<Timed>> threaded(selected.size());
  // A backend left out of the build is not run but keeps its line.
  const auto& left_out = options.left_out ? *options.left_out : left_out_backends();
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const Probe* p = selected[i];
    if (std::find(left_out.begin(), left_out.end(), p->name()) != left_out.end()) {
      done[i] = Timed{
          ProbeResult{{p->name(), false,
                       Reason{ReasonCode::not_compiled,
                              "left out of this build (" + backend_option_flag(p->name()) + ")"}},
                      {},
                      {},
                      {}},
          0.0};
      continue;
    }
    Stopwatch watch;
    if (instant) {
      ProbeResult r = run_guarded(*p, host);
      done[i] = Timed{std::move(r), watch.elapsed_ms()};
      continue;
    }
    InlineAttempt attempt = run_inline(*p, host);
    if (attempt.result) {
      done[i] = Timed{std::move(*attempt.result), watch.elapsed_ms()};
      continue;
    }
    // Its time counts from the attempt here: the runs it asked for started then.
    threaded[i] = std::async(std::launch::async,
                             [p, &host, watch, started = std::move(attempt.started)]() mutable {
                               HeadStartHost head_start(host, std::move(started));
                               ProbeResult r = run_guarded(*p, head_start);
                               return Timed{std::move(r), watch.elapsed_ms()};
                             });
  }

  // The system around the devices (ports, storage, environment): files only.
  double system_ms = 0;
  SystemInfo system_info;
  {
    Stopwatch watch;
    try {
      // A copy: a probe still running on a thread may hold the shared one.
      system_info = resources ? scan_system(host, *resources) : scan_system(host);
    } catch (const std::exception& e) {
      system_info = SystemInfo{};
      system_info.warnings.push_back({"system", std::string("internal error: ") + e.what()});
    }
    system_ms = resources_ms + watch.elapsed_ms();
  }

  for (std::size_t i = 0; i < selected.size(); ++i) {
    Timed timed = done[i] ? std::move(*done[i]) : threaded[i].get();
    ProbeResult& r = timed.result;
    d.timings.push_back({r.backend.name, timed.milliseconds});
    drop_repeated_devices(r);
    cap_warnings(r);
    d.backends.push_back(r.backend);
    std::stable_sort(r.entries.begin(), r.entries.end(),
                     [](const Entry& a, const Entry& b) { return a.index < b.index; });
    for (auto& e : r.entries) d.entries.push_back(std::move(e));
    for (auto& w : r.warnings) d.warnings.push_back(std::move(w));
    for (auto& l : r.links) d.links.push_back(std::move(l));
  }
  d.system = std::move(system_info);
  Stopwatch pci_details;
  attach_pci_details(host, d.entries, d.system.warnings);
  // Not backends, but users asking where the time goes need them too.
  d.timings.push_back({"(system scan)", system_ms});
  d.timings.push_back({"(pci details)", pci_details.elapsed_ms()});
  for (const auto& w : d.system.warnings) d.warnings.push_back(w);
  join_entries_by_uuid(d.entries);
  std::sort(d.links.begin(), d.links.end());
  d.links.erase(std::unique(d.links.begin(), d.links.end()), d.links.end());
  d.total_milliseconds = whole.elapsed_ms();
  return d;
}

}  // namespace hwaccel
