#include "src/probe/apple_probe.h"

#include <algorithm>

#include "src/probe/amdgpu_sysfs.h"
#include "src/probe/apple_silicon.h"
#include "src/probe/apple_system_profiler.h"
#include "src/probe/host_meminfo.h"
#include "src/probe/tool_outcome.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::string_view kCompatible = "/proc/device-tree/compatible";
constexpr std::string_view kDrmDir = "/sys/class/drm";

Warning apple_warning(std::string message) {
  return Warning{"apple", std::move(message)};
}

struct Sysctl {
  std::optional<std::string> value;  // trimmed stdout when the run succeeded
  std::string failure;               // why not, for a warning
};

Sysctl run_sysctl(Host& host, const std::string& name) {
  ToolRun run = host.run({"sysctl", "-n", name});
  if (auto why = reason_for_tool_outcome("sysctl", run)) return {std::nullopt, why->detail};
  if (!run.ok())
    return {std::nullopt, "sysctl -n " + name + " exited with status " +
                              std::to_string(run.exit_code) + ": " +
                              first_meaningful_line(combined_output(run), 100)};
  return {std::string(trim(run.out)), ""};
}

void set_backend_line(ProbeResult& r, Reason if_empty) {
  r.backend.ready = std::any_of(r.entries.begin(), r.entries.end(),
                                [](const Entry& e) { return e.status == EntryStatus::ready; });
  if (r.backend.ready) return;
  if (r.entries.empty()) {
    r.backend.reason = std::move(if_empty);
    return;
  }
  r.backend.reason = r.entries.front().reason;
}

Entry apple_entry(int index, std::string name, DeviceType type) {
  Entry e;
  e.backend = "apple";
  e.index = index;
  e.name = std::move(name);
  e.vendor = "Apple";
  e.type = type;
  return e;
}

void run_macos(Host& host, ProbeResult& r) {
  const std::vector<std::string> argv = {"system_profiler", "SPDisplaysDataType", "-json"};
  const std::string provenance = "tool:system_profiler SPDisplaysDataType -json";
  ToolRun run = host.run(argv);
  if (auto why = reason_for_tool_outcome("system_profiler", run)) {
    r.backend.reason = *why;
    return;
  }
  if (!run.ok()) {
    r.backend.reason =
        Reason{ReasonCode::probe_failed, "system_profiler exited with status " +
                                             std::to_string(run.exit_code) + ": " +
                                             first_meaningful_line(combined_output(run), 120)};
    return;
  }
  auto displays = parse_sp_displays_json(run.out);
  for (const auto& p : displays.problems)
    r.warnings.push_back(apple_warning("system_profiler SPDisplaysDataType -json: " + p));
  if (!displays.valid_json) {
    r.backend.reason =
        Reason{ReasonCode::probe_failed, "system_profiler printed no JSON (first line: \"" +
                                             first_meaningful_line(run.out, 80) + "\")"};
    return;
  }

  auto memsize_run = run_sysctl(host, "hw.memsize");
  std::optional<std::uint64_t> memsize;
  if (memsize_run.value) memsize = parse_sysctl_u64(*memsize_run.value);
  if (!memsize)
    r.warnings.push_back(apple_warning(
        "hw.memsize unknown (" +
        (memsize_run.value ? "\"" + printable_line(*memsize_run.value, 40) + "\" is not a number"
                           : memsize_run.failure) +
        "); unified memory size unknown"));
  auto brand = run_sysctl(host, "machdep.cpu.brand_string");
  std::string chip = brand.value ? printable_line(*brand.value, 80) : "";
  std::optional<std::uint64_t> wired_mb;
  auto wired = run_sysctl(host, "iogpu.wired_limit_mb");  // absent on Intel Macs and macOS < 14
  if (wired.value) wired_mb = parse_sysctl_u64(*wired.value);

  int index = 0;
  for (const auto& gpu : displays.gpus) {
    const bool apple_gpu = gpu.vendor == "Apple";
    std::string name = gpu.model;
    if (gpu.cores) name += " (" + std::to_string(*gpu.cores) + "-core GPU)";
    Entry e = apple_entry(index++, name, DeviceType::gpu);
    e.api = "metal";
    e.vendor = gpu.vendor.empty() ? "Apple" : gpu.vendor;
    e.compute_class = metal_compute_class(gpu.metal);
    e.provenance.push_back(provenance);
    if (gpu.device_id) e.pci_device_id = gpu.device_id;
    if (apple_gpu || (gpu.builtin && !gpu.vram_bytes)) {
      e.physical_id = apple_soc_physical_id(apple_gpu ? gpu.model : chip, "gpu");
      e.memory.kind = MemoryKind::unified;
      if (memsize) {
        e.memory.total_bytes = memsize;
        auto ws = apple_working_set(*memsize, wired_mb);
        e.memory.working_set_limit_bytes = ws.bytes;
        e.memory.source = "sysctl hw.memsize (unified memory); working-set limit: " + ws.rule;
        e.provenance.push_back("tool:sysctl -n hw.memsize");
        if (wired.value) e.provenance.push_back("tool:sysctl -n iogpu.wired_limit_mb");
      } else {
        e.memory.source = "unified memory of unknown size (hw.memsize unreadable)";
      }
    } else {
      e.physical_id = "mac:gpu" + std::to_string(e.index);
      e.memory.kind = MemoryKind::discrete;
      e.memory.total_bytes = gpu.vram_bytes;
      e.memory.source = "system_profiler spdisplays_vram";
    }
    if (gpu.metal.empty()) {
      e.status = EntryStatus::unavailable;
      e.reason =
          Reason{ReasonCode::no_backend, gpu.model + ": system_profiler reports no Metal support"};
    }
    r.entries.push_back(std::move(e));
  }

  // The Neural Engine: every Apple silicon Mac has one; Core ML is its only door.
  std::string soc = chip.rfind("Apple M", 0) == 0 ? chip : "";
  for (const auto& gpu : displays.gpus)
    if (soc.empty() && gpu.vendor == "Apple" && gpu.model.rfind("Apple M", 0) == 0) soc = gpu.model;
  if (!soc.empty()) {
    const int cores = apple_neural_engine_cores(soc);
    Entry ane = apple_entry(index++, soc + " Neural Engine (" + std::to_string(cores) + "-core)",
                            DeviceType::npu);
    ane.api = "coreml";
    ane.physical_id = apple_soc_physical_id(soc, "ane");
    ane.compute_class = "ane";
    ane.memory.kind = MemoryKind::unified;
    ane.memory.total_bytes = memsize;
    ane.memory.source = memsize
                            ? "sysctl hw.memsize (unified memory; Core ML allots the ANE's share)"
                            : "unified memory of unknown size (hw.memsize unreadable)";
    ane.provenance.push_back(brand.value ? "tool:sysctl -n machdep.cpu.brand_string" : provenance);
    r.entries.push_back(std::move(ane));
  }
  set_backend_line(r, Reason{ReasonCode::no_device, "system_profiler lists no graphics processor"});
}

// Asahi Linux: the SoC from the device tree; the GPU through the asahi DRM driver.
void run_asahi(Host& host, ProbeResult& r, const std::string& compatible) {
  std::string soc_id;
  std::string soc = apple_soc_name(compatible, &soc_id);
  if (soc.empty()) soc = soc_id.empty() ? "Apple silicon" : "Apple " + soc_id;
  const std::string dt = "file:" + std::string(kCompatible);

  std::string card;
  if (auto names = host.list(kDrmDir)) {
    for (const auto& n : *names) {
      if (!is_drm_card_name(n)) continue;
      auto link = host.readlink(std::string(kDrmDir) + "/" + n + "/device/driver");
      if (link && link_basename(*link) == "asahi") {
        card = n;
        break;
      }
    }
  }
  Entry gpu = apple_entry(0, soc + " GPU", DeviceType::gpu);
  gpu.api = "drm";
  gpu.physical_id = apple_soc_physical_id(soc, "gpu");
  gpu.provenance.push_back(dt);
  gpu.memory.kind = MemoryKind::unified;
  HostMeminfo meminfo(host);
  std::string why;
  if (const auto& info = meminfo.get(why)) {
    gpu.memory.total_bytes = info->total_bytes;
    gpu.memory.free_bytes = info->available_bytes;
    gpu.memory.source = "/proc/meminfo (MemTotal, MemAvailable): unified memory";
    gpu.provenance.push_back("file:/proc/meminfo");
  } else {
    gpu.memory.source = "unified memory; /proc/meminfo unreadable (" + why + ")";
  }
  if (card.empty()) {
    gpu.status = EntryStatus::unavailable;
    gpu.reason = Reason{ReasonCode::driver_not_found,
                        "Apple device tree (" + (soc_id.empty() ? soc : soc_id) +
                            ") but no DRM card is bound to the asahi driver"};
  } else {
    gpu.provenance.push_back("file:" + std::string(kDrmDir) + "/" + card + "/device/driver");
  }
  r.entries.push_back(std::move(gpu));

  Entry ane = apple_entry(1, soc + " Neural Engine", DeviceType::npu);
  ane.api = "none";
  ane.physical_id = apple_soc_physical_id(soc, "ane");
  ane.memory.kind = MemoryKind::unified;
  ane.memory.source = "unified memory";
  ane.provenance.push_back(dt);
  ane.status = EntryStatus::unavailable;
  ane.reason = Reason{ReasonCode::driver_not_found,
                      "the Neural Engine has no driver in mainline Linux (Core ML is macOS only)"};
  r.entries.push_back(std::move(ane));
  set_backend_line(r, Reason{ReasonCode::no_device, ""});
}

}  // namespace

ProbeResult AppleProbe::run(Host& host) const {
  ProbeResult r;
  r.backend.name = "apple";
  const std::string os = host.facts().os;
  if (os == "darwin") {
    run_macos(host, r);
    return r;
  }
  auto compatible = host.read(kCompatible);
  if (compatible && is_apple_device_tree(*compatible)) {
    run_asahi(host, r, *compatible);
    return r;
  }
  if (!compatible && compatible.error().code != ENOENT)
    r.warnings.push_back(apple_warning("cannot read " + std::string(kCompatible) + " (" +
                                       compatible.error().errno_name() + ")"));
  r.backend.reason =
      Reason{ReasonCode::no_device,
             "not macOS (facts.os " + (os.empty() ? "unknown" : os) + ") and no Apple device tree"};
  return r;
}

}  // namespace hwaccel
